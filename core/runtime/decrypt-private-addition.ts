/**
 * The client half of private domain additions (next to the envelope verifier, and like it WebCrypto
 * and RFC 8785 only): open one `encrypted` addition with the viewer's access key. Before anything is
 * decrypted it recomputes the additional data from the addition's own heads and bindings and the
 * wrap and envelope digests; AES-GCM then refuses any altered ciphertext, nonce, wrapped key or
 * binding, and the payload must hash to `payloadDigest`. Verify the signed envelope first
 * (verify-envelope.ts): this checks the addition, the envelope checks who answered.
 */
import canonicalize from 'canonicalize'

/** The `encrypted` addition as received (V124PrivateDomainEncryptedAddition). */
export interface EncryptedAddition {
  readonly additionKind: 'encrypted'
  readonly appendId: string
  readonly sequence: number
  readonly eventDigest: string
  readonly priorHead: string | null
  readonly newHead: string
  readonly domainHead: string
  readonly viewerSubjectId: string
  readonly viewerSubjectHead: string
  readonly grantHead: string
  readonly accessKeyHead: string
  readonly recipientWrapDigest: string
  readonly privateEnvelope: {
    readonly schema: string
    readonly worldId: string
    readonly visibilityMode: 'private' | 'grant'
    readonly ciphertextB64u: string
    readonly nonceB64u: string
    readonly aadDigest: string
    readonly payloadDigest: string
    readonly envelopeDigest: string
    readonly authority: unknown
    readonly recipientWrap: {
      readonly recipientSubjectId: string
      readonly recipientAccessKeyHead: string
      readonly ephemeralPublicKeyJwk: JsonWebKey
      readonly nonceB64u: string
      readonly wrappedContentKeyB64u: string
      readonly wrapDigest: string
    }
  }
}

/** What the viewer expects the addition to be bound to (what it sent and holds). */
export interface PrivateAdditionExpectation {
  readonly applicationId: string
  readonly domainId: string
  readonly viewerSubjectId: string
  readonly viewerSubjectHead: string
  readonly grantHead: string
  readonly accessKeyHead: string
}

export type DecryptVerdict =
  | { readonly ok: true; readonly payload: Uint8Array }
  | { readonly ok: false; readonly errors: readonly string[] }

const encoder = new TextEncoder()
const canonicalBytes = (value: unknown): Uint8Array => encoder.encode(canonicalize(value) ?? 'null')

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
}

function fromB64u(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url')
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

const refused = (...errors: string[]): DecryptVerdict => ({ ok: false, errors })

/**
 * @example
 * const opened = await decryptPrivateAddition(addition, { applicationId, domainId, viewerSubjectId, viewerSubjectHead, grantHead, accessKeyHead }, accessPrivateKey)
 * if (opened.ok) render(opened.payload)
 */
export async function decryptPrivateAddition(addition: EncryptedAddition, expected: PrivateAdditionExpectation, accessPrivateKey: CryptoKey): Promise<DecryptVerdict> {
  if (addition.additionKind !== 'encrypted') return refused('not an encrypted addition')
  const envelope = addition.privateEnvelope
  const wrap = envelope.recipientWrap
  const errors: string[] = []
  for (const name of ['viewerSubjectId', 'viewerSubjectHead', 'grantHead', 'accessKeyHead'] as const) {
    if (addition[name] !== expected[name]) errors.push(`the addition is bound to another ${name}`)
  }
  if (wrap.recipientSubjectId !== addition.viewerSubjectId || wrap.recipientAccessKeyHead !== addition.accessKeyHead) errors.push('the content key is wrapped for another recipient')
  const aad = canonicalBytes({
    schema: 'cairn.v124.private_addition_aad', applicationId: expected.applicationId, domainId: expected.domainId, worldId: envelope.worldId,
    visibilityMode: envelope.visibilityMode, appendId: addition.appendId, sequence: addition.sequence, eventDigest: addition.eventDigest,
    priorHead: addition.priorHead, newHead: addition.newHead, domainHead: addition.domainHead, viewerSubjectId: addition.viewerSubjectId,
    viewerSubjectHead: addition.viewerSubjectHead, grantHead: addition.grantHead, accessKeyHead: addition.accessKeyHead,
  })
  const aadDigest = await sha256Hex(aad)
  if (aadDigest !== envelope.aadDigest) errors.push('aadDigest does not match the addition\'s bindings')
  const { wrapDigest, ...unsignedWrap } = wrap
  if (wrapDigest !== (await sha256Hex(canonicalBytes(unsignedWrap))) || addition.recipientWrapDigest !== wrapDigest) errors.push('wrapDigest does not match the recipient wrap')
  const { envelopeDigest, ...unsignedEnvelope } = envelope
  if (envelopeDigest !== (await sha256Hex(canonicalBytes(unsignedEnvelope)))) errors.push('envelopeDigest does not match the envelope')
  if (errors.length > 0) return { ok: false, errors }
  try {
    const jwk = wrap.ephemeralPublicKeyJwk
    const ephemeral = await crypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, ext: true }, { name: 'ECDH', namedCurve: 'P-256' }, false, [])
    const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: ephemeral }, accessPrivateKey, 256)
    const info = canonicalBytes({
      schema: 'cairn.v124.private_recipient_wrap', recipientSubjectId: wrap.recipientSubjectId, recipientAccessKeyHead: wrap.recipientAccessKeyHead,
      aadDigest, ephemeralX: jwk.x, ephemeralY: jwk.y,
    })
    const hkdf = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveBits'])
    const kekBits = await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: info as BufferSource }, hkdf, 256)
    const kek = await crypto.subtle.importKey('raw', kekBits, 'AES-GCM', false, ['decrypt'])
    const contentKeyBytes = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromB64u(wrap.nonceB64u) as BufferSource, additionalData: info as BufferSource }, kek, fromB64u(wrap.wrappedContentKeyB64u) as BufferSource)
    const contentKey = await crypto.subtle.importKey('raw', contentKeyBytes, 'AES-GCM', false, ['decrypt'])
    const payload = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromB64u(envelope.nonceB64u) as BufferSource, additionalData: aad as BufferSource }, contentKey, fromB64u(envelope.ciphertextB64u) as BufferSource))
    if ((await sha256Hex(payload)) !== envelope.payloadDigest) return refused('the payload does not hash to payloadDigest')
    return { ok: true, payload }
  } catch {
    return refused('the envelope does not decrypt with this access key (altered or not for this viewer)')
  }
}
