/**
 * Who the log is: its origin (the checkpoint's first line and the note key name) and the Ed25519
 * key that signs its checkpoints. Switching to a proof-purpose key is this one function.
 */
import type { KeyStore, SigningKey } from '../../ports/key-store.js'
import { fromBase64Url } from '../encoding/base64url.js'
import type { NoteSigner } from './signed-note.js'
import { verifierKeyText } from './signed-note.js'

/**
 * The C2SP origin: the log's URL prefix without scheme or trailing slash.
 *
 * @example logOrigin('https://cairn.example/app') // 'cairn.example/app/log'
 */
export function logOrigin(baseUrl: string): string {
  let origin = origins.get(baseUrl)
  if (origin === undefined) {
    const url = new URL(baseUrl)
    origin = `${url.host}${url.pathname.replace(/\/+$/, '')}/log`
    if (origins.size >= 64) origins.clear()
    origins.set(baseUrl, origin)
  }
  return origin
}

/** Every seal and checkpoint asks for the origin of the same base URL: parse it once (a URL parse is ~40 µs of a seal). */
const origins = new Map<string, string>()

/**
 * The checkpoint signer: the KeyStore's current Ed25519 *proof* key (published forever, never a
 * token key that retires), so a pinned log key keeps verifying old checkpoints.
 */
export async function logSigner(keys: KeyStore, baseUrl: string): Promise<NoteSigner & { readonly verifierKey: string; readonly kid: string }> {
  const key = await keys.current('EdDSA', 'proof')
  const publicKey = publicKeyOf(key)
  if (!publicKey || publicKey.length !== 32) throw new Error('The log signing key is not an Ed25519 key')
  return new KeyStoreNoteSigner(logOrigin(baseUrl), publicKey, key)
}

/**
 * A class, not an object literal with a getter and a method: V8 builds such a literal on a slow
 * path (about 2 µs), and integration asks for the signer on every seal.
 */
class KeyStoreNoteSigner implements NoteSigner {
  readonly kid: string
  readonly #key: SigningKey

  constructor(
    readonly name: string,
    readonly publicKey: Uint8Array,
    key: SigningKey,
  ) {
    this.kid = key.kid
    this.#key = key
  }

  /** Written when read: integration signs with this signer on every seal and never reads it. */
  get verifierKey(): string {
    return verifierKeyText(this.name, this.publicKey)
  }

  sign(message: Uint8Array): Promise<Uint8Array> {
    return this.#key.sign(message)
  }
}

/** Every integration asks for the signer: the public key's bytes are decoded once per key (a copy is handed out, so no caller changes another's). */
const publicKeys = new WeakMap<SigningKey, { readonly x: string; readonly bytes: Uint8Array | undefined }>()

function publicKeyOf(key: SigningKey): Uint8Array | undefined {
  const x = key.publicJwk.x
  if (x === undefined) return undefined
  let found = publicKeys.get(key)
  if (found?.x !== x) publicKeys.set(key, (found = { x, bytes: fromBase64Url(x) }))
  return found.bytes?.slice()
}

/** Verifier keys of every published Ed25519 proof key (after a rotation, old receipts verify with the old one). */
export async function logVerifierKeys(keys: KeyStore, baseUrl: string): Promise<string[]> {
  const { keys: published } = await keys.jwks('proof')
  return published.flatMap((jwk) => {
    const publicKey = jwk.alg === 'EdDSA' && jwk.x !== undefined ? fromBase64Url(jwk.x) : undefined
    return publicKey?.length === 32 ? [verifierKeyText(logOrigin(baseUrl), publicKey)] : []
  })
}
