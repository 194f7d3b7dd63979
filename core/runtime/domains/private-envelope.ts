/**
 * Encrypting one private payload for one viewer (server side): a fresh AES-256-GCM content key
 * encrypts the payload with the addition's binding as additional data; the content key is wrapped
 * for the viewer's access key by ECDH-ES on P-256 with a fresh ephemeral key, HKDF-SHA256 and
 * AES-256-GCM. Every random byte comes from the Entropy port. The client half, WebCrypto only, is
 * core/runtime/decrypt-private-addition.ts; docs/runtime.md gives the exact bytes.
 */
import { createCipheriv, createECDH, hkdfSync } from 'node:crypto'
import type { ComponentType } from '../../contract/components.js'
import { RUNTIME_AUTHORITY } from '../../contract/schemas/runtime/authority.js'
import { canonicalJsonBytes } from '../../digest/canonical-json.js'
import { sha256Hex, sha256OfJson } from '../../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../../encoding/base64url.js'
import type { Entropy } from '../../../ports/entropy.js'
import type { AccessKeyJwk } from './access-grants.js'

type PrivateEnvelope = ComponentType<'V124PrivateWorldEnvelopeProjection'>

/** What the ciphertext is bound to (its RFC 8785 bytes are the AES-GCM additional data). */
export interface PrivateAdditionBinding {
  readonly schema: 'cairn.v124.private_addition_aad'
  readonly applicationId: string
  readonly domainId: string
  readonly worldId: string
  readonly visibilityMode: 'private' | 'grant'
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
}

/** The HKDF info (and wrap AAD) of a recipient wrap: RFC 8785 bytes of this object. */
export function wrapInfoOf(wrap: { recipientSubjectId: string; recipientAccessKeyHead: string; aadDigest: string; ephemeralX: string; ephemeralY: string }): Uint8Array {
  return canonicalJsonBytes({ schema: 'cairn.v124.private_recipient_wrap', ...wrap })
}

function gcm(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array {
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
  return new Uint8Array(body)
}

/** An ephemeral P-256 key pair drawn from the Entropy port (a draw outside 1…n-1 is drawn again). */
function ephemeralKey(entropy: Entropy) {
  for (;;) {
    const ecdh = createECDH('prime256v1')
    try {
      ecdh.setPrivateKey(entropy.bytes(32))
      return ecdh
    } catch {
      // out of range scalar: astronomically rare; draw again
    }
  }
}

/**
 * @example const envelope = encryptForViewer(deps.entropy, payload, binding, viewerKey)
 */
export function encryptForViewer(entropy: Entropy, payload: Uint8Array, binding: PrivateAdditionBinding, viewerKey: AccessKeyJwk): PrivateEnvelope {
  const aad = canonicalJsonBytes(binding)
  const aadDigest = sha256Hex(aad)
  const contentKey = entropy.bytes(32)
  const nonce = entropy.bytes(12)
  const ciphertext = gcm(contentKey, nonce, payload, aad)

  const ephemeral = ephemeralKey(entropy)
  const point = ephemeral.getPublicKey()
  const ephemeralX = toBase64Url(point.subarray(1, 33))
  const ephemeralY = toBase64Url(point.subarray(33, 65))
  const recipientPoint = Buffer.concat([Buffer.from([4]), Buffer.from(fromBase64Url(viewerKey.x)!), Buffer.from(fromBase64Url(viewerKey.y)!)])
  const shared = ephemeral.computeSecret(recipientPoint)
  const info = wrapInfoOf({ recipientSubjectId: binding.viewerSubjectId, recipientAccessKeyHead: binding.accessKeyHead, aadDigest, ephemeralX, ephemeralY })
  const keyEncryptionKey = new Uint8Array(hkdfSync('sha256', shared, new Uint8Array(0), info, 32))
  const wrapNonce = entropy.bytes(12)
  const unsignedWrap = {
    recipientSubjectId: binding.viewerSubjectId,
    recipientAccessKeyHead: binding.accessKeyHead,
    ephemeralPublicKeyJwk: { key_ops: [], ext: true, kty: 'EC' as const, crv: 'P-256' as const, x: ephemeralX, y: ephemeralY },
    nonceB64u: toBase64Url(wrapNonce),
    wrappedContentKeyB64u: toBase64Url(gcm(keyEncryptionKey, wrapNonce, contentKey, info)),
  }
  const recipientWrap = { ...unsignedWrap, wrapDigest: sha256OfJson(unsignedWrap) }
  const unsigned = {
    schema: 'cairn.v124.private_world_envelope_projection' as const,
    worldId: binding.worldId,
    visibilityMode: binding.visibilityMode,
    ciphertextB64u: toBase64Url(ciphertext),
    nonceB64u: toBase64Url(nonce),
    aadDigest,
    payloadDigest: sha256Hex(payload),
    recipientWrap,
    authority: RUNTIME_AUTHORITY,
  }
  return { ...unsigned, envelopeDigest: sha256OfJson(unsigned) }
}
