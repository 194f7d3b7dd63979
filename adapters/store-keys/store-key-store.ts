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
import { FlattenedEncrypt, flattenedDecrypt, type FlattenedJWE } from 'jose'
import { PortUnavailableError } from '../../ports/errors.js'
import type { KeyPurpose, SigningAlgorithm } from '../../ports/key-store.js'
import type { Json, Store } from '../../ports/store.js'
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

/** One key as the ring document keeps it: `jwk` in the clear, or `jwe` when a key-encryption key is configured. */
interface StoredKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly purpose: KeyPurpose
  readonly createdAt: string
  readonly retiredAt?: string
  readonly jwk?: JsonWebKey
  readonly jwe?: FlattenedJWE
}

interface RingDocument {
  readonly format: 'cairn.keys.v2'
  readonly keys: readonly StoredKey[]
}

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
    const document = await store.get<Json>(SIGNING_KEYS_COLLECTION, KEY_RING_DOCUMENT)
    return { version: document?.version, records: document === undefined ? [] : await recordsOf(document.value as unknown as RingDocument, kek) }
  }
  return {
    read: async () => (await load()).records,
    update: async (change) => {
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        const { version, records } = await load()
        const next = await change(records)
        if (next === undefined) return records
        const value = (await documentOf(next, kek)) as unknown as Json
        const outcome = await store.commit([
          { kind: 'put', collection: SIGNING_KEYS_COLLECTION, key: KEY_RING_DOCUMENT, value, expect: version === undefined ? { kind: 'absent' } : { kind: 'version', version } },
        ])
        if (outcome.ok) return next
        // Another host changed the ring meanwhile: decide again on what it left.
      }
      throw new PortUnavailableError(PORT, `the key ring kept changing under ${maxAttempts} tries`)
    },
  }
}

async function recordsOf(document: RingDocument, kek: Kek | undefined): Promise<readonly KeyRecord[]> {
  if (document.format !== 'cairn.keys.v2') throw new PortUnavailableError(PORT, `the stored key ring has an unknown format`)
  return Promise.all(
    document.keys.map(async (key) => ({
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

async function documentOf(records: readonly KeyRecord[], kek: Kek | undefined): Promise<RingDocument> {
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
