/**
 * A person's ID key, on WebCrypto alone: an ECDSA P-256 key pair whose private half is
 * non-extractable (ES256; the ID proof's signature is WebCrypto's raw r‖s, exactly the JWS form
 * docs/identity.md asks for). Kept by a `KeyKeeper`: IndexedDB in browsers (the CryptoKey itself
 * is stored, so the private key never exists as bytes), a 0600 key file in Node.
 */
import { toBase64Url } from '../core/proof/bytes.js'
import { idProofMessageBytes, type IdContinueRequest, type IdProofFields } from '../core/identity/id-proof-message.js'
import { jwkThumbprintOf } from '../core/proof/web-crypto.js'
import { challengeSigningBytes, type ProofAuthorityChallenge } from '../core/runtime/challenge-signing.js'
import { kaiMomentAt } from '../core/time/kai.js'
import type { CairnClient } from './cairn-client.js'
import type { Result } from './result.js'
import type { AnswerOf } from './types.js'

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const

export interface IdKey {
  /** RFC 7638 thumbprint of the public key: the ID proof's `keyId`. */
  readonly keyId: string
  readonly alg: 'ES256'
  /** The 65-byte uncompressed point, base64url. */
  readonly publicKeyRawB64u: string
  /** The private key; `extractable` is false. */
  readonly privateKey: CryptoKey
  /** JWS-form signature (raw r‖s, 64 bytes). */
  sign(bytes: Uint8Array): Promise<Uint8Array>
}

/** Where an ID key pair is kept between runs. */
export interface KeyKeeper {
  load(): Promise<CryptoKeyPair | undefined>
  /** Create the pair and keep it; answers the pair in use (non-extractable private key). */
  create(): Promise<CryptoKeyPair>
}

async function idKeyOf(pair: CryptoKeyPair): Promise<IdKey> {
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey)
  return {
    keyId: await jwkThumbprintOf({ kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }),
    alg: 'ES256',
    publicKeyRawB64u: toBase64Url(raw),
    privateKey: pair.privateKey,
    sign: async (bytes) => new Uint8Array(await crypto.subtle.sign(SIGNING, pair.privateKey, bytes as Uint8Array<ArrayBuffer>)),
  }
}

/** The keeper's key, created on first use. @example const key = await loadOrCreateIdKey(indexedDbKeyKeeper()) */
export async function loadOrCreateIdKey(keeper: KeyKeeper = memoryKeyKeeper()): Promise<IdKey> {
  return idKeyOf((await keeper.load()) ?? (await keeper.create()))
}

/** Kept only while the page or process lives. */
export function memoryKeyKeeper(): KeyKeeper {
  let pair: CryptoKeyPair | undefined
  return {
    load: async () => pair,
    create: async () => (pair = await crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify'])),
  }
}

/** Browsers: the CryptoKey pair in IndexedDB (structured clone keeps it non-extractable). */
export function indexedDbKeyKeeper(database = 'cairn-client', name = 'id-key'): KeyKeeper {
  const open = () => new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(database, 1)
    request.onupgradeneeded = () => request.result.createObjectStore('keys')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  const run = async <T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>) => {
    const db = await open()
    try {
      return await new Promise<T>((resolve, reject) => {
        const request = action(db.transaction('keys', mode).objectStore('keys'))
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
    } finally {
      db.close()
    }
  }
  return {
    load: async () => (await run<CryptoKeyPair | undefined>('readonly', (store) => store.get(name))) ?? undefined,
    async create() {
      const pair = await crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify'])
      await run('readwrite', (store) => store.put(pair, name))
      return pair
    },
  }
}

/** The two calls of node:fs/promises the key file needs (typed here so the module stays browser-clean). */
interface NodeFiles {
  readFile(path: string, encoding: 'utf8'): Promise<string>
  writeFile(path: string, data: string, options: { mode: number; flag: string }): Promise<void>
}

/** Node: the private JWK in a file only its owner reads (0600), imported non-extractable for use. */
export function fileKeyKeeper(path: string): KeyKeeper {
  // Named by a variable so browser bundlers leave Node's module alone.
  const fsModule = 'node:fs/promises'
  const fs = () => import(/* @vite-ignore */ fsModule) as Promise<NodeFiles>
  const use = async (jwk: JsonWebKey): Promise<CryptoKeyPair> => {
    const { d: _d, ...publicJwk } = jwk
    return {
      privateKey: await crypto.subtle.importKey('jwk', jwk, ALGORITHM, false, ['sign']),
      publicKey: await crypto.subtle.importKey('jwk', { ...publicJwk, key_ops: ['verify'] }, ALGORITHM, true, ['verify']),
    }
  }
  return {
    async load() {
      const text = await (await fs()).readFile(path, 'utf8').catch((error: { code?: string }) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)))
      return text === undefined ? undefined : use(JSON.parse(text) as JsonWebKey)
    },
    async create() {
      const pair = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])
      const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey)
      // `wx`: never overwrite a key someone already keeps there.
      await (await fs()).writeFile(path, `${JSON.stringify({ ...jwk, key_ops: ['sign'] })}\n`, { mode: 0o600, flag: 'wx' })
      return use({ ...jwk, key_ops: ['sign'] })
    },
  }
}

export interface SignInDraft {
  readonly username: string
  readonly displayName: string
  /** A stable id of this device or install. */
  readonly localUid: string
  readonly email?: string
}

/** The signed `CairnIdContinueRequest` for `key` (docs/identity.md). */
export async function signIdProof(key: IdKey, draft: SignInDraft, audience: string, now = Date.now()): Promise<IdContinueRequest> {
  const fields: IdProofFields = {
    keyId: key.keyId, alg: key.alg, publicKeyRawB64u: key.publicKeyRawB64u, localUid: draft.localUid, username: draft.username, displayName: draft.displayName,
    createdAt: new Date(now).toISOString(), challengeB64Url: toBase64Url(crypto.getRandomValues(new Uint8Array(32))),
    ...(draft.email !== undefined ? { email: draft.email } : {}),
  }
  return { ...fields, signatureB64Url: toBase64Url(await key.sign(idProofMessageBytes(fields, audience))) }
}

/**
 * Sign in (or create the account, or bind this key to the signed-in account) with the ID proof;
 * the client keeps the session it answers.
 *
 * @example const signedIn = await signIn(client, await loadOrCreateIdKey(fileKeyKeeper('ada.key')), { username: 'ada', displayName: 'Ada', localUid: 'laptop' })
 */
export async function signIn(client: CairnClient, key: IdKey, draft: SignInDraft): Promise<Result<AnswerOf<'continueCairnId'>>> {
  return client.call('continueCairnId', { body: await signIdProof(key, draft, client.baseUrl, client.now()) })
}

export interface ChallengeInput {
  /** The application (or session audience) the consent is for. */
  readonly audience: string
  readonly scopes: readonly string[]
  /** What the person was shown. */
  readonly statement: string
  /** @default 16 random bytes */
  readonly nonce?: string
  readonly issuedAtMs?: number
  /** @default five minutes from now */
  readonly expiresAtMs?: number
}

/** A challenge before its signature: the object, and the exact bytes the ID key signs. */
export interface ChallengeDraft {
  readonly challenge: ProofAuthorityChallenge
  readonly signingBytes: Uint8Array
}

/** The challenge for `input`, its proof naming `keyId` but not yet signed (pure; synchronous signers use it directly). */
export function draftProofConsentChallenge(input: ChallengeInput, key: { readonly keyId: string; readonly alg: 'ES256' | 'EdDSA' }, now = Date.now()): ChallengeDraft {
  const issuedAtMs = input.issuedAtMs ?? now
  const unsigned = {
    schema: 'cairn.v124.proof_authority_challenge' as const,
    audience: input.audience,
    nonce: input.nonce ?? toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
    issuedAtKai: kaiMomentAt(issuedAtMs).uPulse,
    expiresAtKai: kaiMomentAt(input.expiresAtMs ?? now + 5 * 60_000).uPulse,
    consent: { statement: input.statement, scopes: [...input.scopes] },
  }
  const proof = { schema: 'cairn.v124.identity_login_proof' as const, keyId: key.keyId, alg: key.alg, challengeB64Url: '', signatureB64Url: '' }
  const signingBytes = challengeSigningBytes({ ...unsigned, proof })
  return { challenge: { ...unsigned, proof: { ...proof, challengeB64Url: toBase64Url(signingBytes) } }, signingBytes }
}

/** The draft with its JWS-form signature. */
export function signedChallenge(draft: ChallengeDraft, signature: Uint8Array): ProofAuthorityChallenge {
  return { ...draft.challenge, proof: { ...draft.challenge.proof, signatureB64Url: toBase64Url(signature) } }
}

/** A ProofConsent challenge signed by the ID key (V124ProofAuthorityChallenge). */
export async function signProofConsentChallenge(key: Pick<IdKey, 'keyId' | 'sign'> & { readonly alg: 'ES256' | 'EdDSA' }, input: ChallengeInput, now = Date.now()): Promise<ProofAuthorityChallenge> {
  const draft = draftProofConsentChallenge(input, key, now)
  return signedChallenge(draft, await key.sign(draft.signingBytes))
}
