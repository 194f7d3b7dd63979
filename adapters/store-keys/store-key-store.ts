/**
 * KeyStore kept in the shared Store, for deployments of several hosts with no shared file system
 * (MongoDB): the whole key ring is one document of the `cairn_signing_keys` collection, changed by
 * read, decide, commit with a version expectation, and decided again when another host won the
 * race. Private JWKs are encrypted at rest (JWE, `dir` + A256GCM, RFC 7516/7518) when a
 * key-encryption key is configured (CAIRN_KEY_ENCRYPTION_KEY): then a copy of the database alone
 * signs nothing. Without one they are stored as JWKs, protected only by the database's own access
 * control, as the key file is by its mode 0600 (docs/decisions.md).
 */
import { createHash, type JsonWebKey } from 'node:crypto'
import * as t from 'io-ts'
import { FlattenedEncrypt, flattenedDecrypt } from 'jose'
import { PortUnavailableError } from '../../ports/errors.js'
import { CorruptDocumentError, typedCollection, unchangedSince } from '../../core/usecases/typed-collection.js'
import type { Store } from '../../ports/store.js'
import type { KeyRecord } from '../shared/held-key.js'
import { KeyRing, type KeyRingOptions, type KeyRingStorage } from '../shared/key-ring.js'

/** The adapter's name, as configuration and logs spell it. */
export const STORE_KEY_STORE_NAME = 'store'

/** The collection holding the key ring, and the ring's document key. */
export const SIGNING_KEYS_COLLECTION = 'cairn_signing_keys'
export const KEY_RING_DOCUMENT = 'ring'

/** The environment variable `cairn serve` reads the key-encryption key from. */
export const KEY_ENCRYPTION_KEY_ENV = 'CAIRN_KEY_ENCRYPTION_KEY'

export interface StoreKeyStoreOptions extends KeyRingOptions {
  readonly store: Store
  /** 32 bytes, or their base64url/base64 text: encrypts private keys at rest. */
  readonly keyEncryptionKey?: Uint8Array | string
  /** Tries of one change when other hosts keep winning the race. @default 20 */
  readonly maxAttempts?: number
}

/** A JWK's members as JSON text keeps them (RFC 7517/7518); others pass through untouched. */
const JwkCodec = t.partial({ kty: t.string, crv: t.string, x: t.string, y: t.string, d: t.string, n: t.string, e: t.string, p: t.string, q: t.string, dp: t.string, dq: t.string, qi: t.string })

/** A flattened JWE (RFC 7516 §7.2.2) as `dir` + A256GCM writes it. */
const FlattenedJweCodec = t.intersection([t.type({ ciphertext: t.string }), t.partial({ protected: t.string, iv: t.string, tag: t.string, encrypted_key: t.string, aad: t.string })])

/** One key as the ring document keeps it: `jwk` in the clear, or `jwe` when a key-encryption key is configured. */
const StoredKeyCodec = t.intersection([
  t.type({ kid: t.string, alg: t.keyof({ EdDSA: null, ES256: null, RS256: null }), purpose: t.keyof({ token: null, proof: null }), createdAt: t.string }),
  t.partial({ retiredAt: t.string, jwk: JwkCodec, jwe: FlattenedJweCodec }),
])
type StoredKey = t.TypeOf<typeof StoredKeyCodec>

const RingDocumentCodec = t.type({ format: t.literal('cairn.keys.v2'), keys: t.array(StoredKeyCodec) })

/** The ring, one document; a document of another format or shape reads as damaged. */
const keyRings = typedCollection({ name: SIGNING_KEYS_COLLECTION }, RingDocumentCodec)

const PORT = 'KeyStore'
const KEK_BYTES = 32

/**
 * @example
 * const keys = new StoreKeyStore({ store, keyEncryptionKey: process.env.CAIRN_KEY_ENCRYPTION_KEY })
 * const key = await keys.current('RS256')
 */
export class StoreKeyStore extends KeyRing {
  constructor(options: StoreKeyStoreOptions) {
    const kek = options.keyEncryptionKey === undefined ? undefined : keyEncryptionKeyOf(options.keyEncryptionKey)
    super(storeStorage(options.store, kek, options.maxAttempts ?? 20), options)
  }
}

/** The key-encryption key as bytes; a TypeError in a plain sentence when it is not 32 bytes. */
export function keyEncryptionKeyOf(value: Uint8Array | string): Uint8Array {
  const bytes = typeof value === 'string' ? new Uint8Array(Buffer.from(value.trim().replaceAll('+', '-').replaceAll('/', '_'), 'base64url')) : value
  if (bytes.byteLength !== KEK_BYTES) throw new TypeError(`The key-encryption key must be ${KEK_BYTES} bytes (base64url), not ${bytes.byteLength}`)
  return bytes
}

interface Kek {
  readonly bytes: Uint8Array
  /** Names the key-encryption key in each JWE header, so a wrong one is told apart from damage. */
  readonly id: string
}

function storeStorage(store: Store, kekBytes: Uint8Array | undefined, maxAttempts: number): KeyRingStorage {
  const kek: Kek | undefined = kekBytes && { bytes: kekBytes, id: createHash('sha256').update(kekBytes).digest('base64url').slice(0, 16) }
  let declared: Promise<void> | undefined
  const load = async () => {
    declared ??= store.declare([{ name: SIGNING_KEYS_COLLECTION }]).catch((error: unknown) => {
      declared = undefined
      throw error
    })
    await declared
    let document: Awaited<ReturnType<typeof keyRings.get>>
    try {
      document = await keyRings.get(store, KEY_RING_DOCUMENT)
    } catch (error) {
      if (error instanceof CorruptDocumentError) throw new PortUnavailableError(PORT, `the stored key ring is damaged or of an unknown format (${error.message})`, { cause: error })
      throw error
    }
    return { version: document?.version, records: document === undefined ? [] : await recordsOf(document.value.keys, kek) }
  }
  return {
    read: async () => (await load()).records,
    update: async (change) => {
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        const { version, records } = await load()
        const next = await change(records)
        if (next === undefined) return records
        const outcome = await store.commit([keyRings.put(KEY_RING_DOCUMENT, await documentOf(next, kek), unchangedSince(version ?? null))])
        if (outcome.ok) return next
        // Another host changed the ring meanwhile: decide again on what it left.
      }
      throw new PortUnavailableError(PORT, `the key ring kept changing under ${maxAttempts} tries`)
    },
  }
}

async function recordsOf(keys: readonly StoredKey[], kek: Kek | undefined): Promise<readonly KeyRecord[]> {
  return Promise.all(
    keys.map(async (key) => ({
      kid: key.kid,
      alg: key.alg,
      purpose: key.purpose,
      createdAt: Date.parse(key.createdAt),
      ...(key.retiredAt === undefined ? {} : { retiredAt: Date.parse(key.retiredAt) }),
      privateJwk: await privateJwkOf(key, kek),
    })),
  )
}

async function privateJwkOf(key: StoredKey, kek: Kek | undefined): Promise<JsonWebKey> {
  if (key.jwe === undefined) {
    if (key.jwk === undefined) throw new PortUnavailableError(PORT, `stored key ${key.kid} has no private key`)
    return key.jwk
  }
  if (kek === undefined) throw new PortUnavailableError(PORT, `stored key ${key.kid} is encrypted, and no key-encryption key is configured (${KEY_ENCRYPTION_KEY_ENV})`)
  try {
    const { plaintext } = await flattenedDecrypt(key.jwe, kek.bytes, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] })
    return JSON.parse(new TextDecoder().decode(plaintext)) as JsonWebKey
  } catch (error) {
    const header = JSON.parse(Buffer.from(key.jwe.protected ?? '', 'base64url').toString() || '{}') as { kid?: string }
    const why = header.kid !== undefined && header.kid !== kek.id ? 'was encrypted with another key-encryption key' : 'cannot be decrypted'
    throw new PortUnavailableError(PORT, `stored key ${key.kid} ${why}`, { cause: error })
  }
}

async function documentOf(records: readonly KeyRecord[], kek: Kek | undefined): Promise<t.TypeOf<typeof RingDocumentCodec>> {
  const keys = await Promise.all(
    records.map(async (record): Promise<StoredKey> => {
      const base = {
        kid: record.kid,
        alg: record.alg,
        purpose: record.purpose,
        createdAt: new Date(record.createdAt).toISOString(),
        ...(record.retiredAt === undefined ? {} : { retiredAt: new Date(record.retiredAt).toISOString() }),
      }
      if (kek === undefined) return { ...base, jwk: record.privateJwk }
      const jwe = await new FlattenedEncrypt(new TextEncoder().encode(JSON.stringify(record.privateJwk)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: kek.id, cty: 'jwk+json' })
        .encrypt(kek.bytes)
      return { ...base, jwe }
    }),
  )
  return { format: 'cairn.keys.v2', keys }
}
