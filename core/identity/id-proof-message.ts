/**
 * The exact message an ID proof signs (docs/identity.md, "The signed message"). An SDK builds the
 * same bytes from the request it is about to send:
 *
 * 1. take the CairnIdContinueRequest members `keyId`, `alg`, `publicKeyRawB64u`, `localUid`,
 *    `username`, `displayName`, `createdAt`, `challengeB64Url`, and `email`, `origin`,
 *    `artifactSha256` when sent — every value exactly as sent, nothing trimmed or re-encoded;
 * 2. add `"purpose": "cairn.id.continue.v1"` and `"audience"`: the service's base URL exactly as
 *    its OpenAPI server entry and OIDC issuer give it (no trailing slash);
 * 3. serialise as RFC 8785 canonical JSON and take its UTF-8 bytes.
 *
 * The purpose stops a signature made for anything else from being accepted here; the audience
 * stops a proof made for one deployment from being replayed at another. Every member the service
 * acts on is signed, so no field can be changed in transit.
 */
import type { ComponentType } from '../contract/components.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'

/** Domain separation of the ID continue signature. */
export const ID_PROOF_PURPOSE = 'cairn.id.continue.v1'

export type IdContinueRequest = ComponentType<'CairnIdContinueRequest'>

/** The request members the signature covers: all of them but `signatureB64Url`. */
export type IdProofFields = Omit<IdContinueRequest, 'signatureB64Url'>

/** The signed object before canonicalisation. */
export type IdProofMessage = IdProofFields & { readonly purpose: typeof ID_PROOF_PURPOSE; readonly audience: string }

/**
 * @example idProofMessage(request, 'https://cairn.example') // { alg, audience, challengeB64Url, …, purpose: 'cairn.id.continue.v1' }
 */
export function idProofMessage(fields: IdProofFields, audience: string): IdProofMessage {
  return {
    keyId: fields.keyId,
    alg: fields.alg,
    publicKeyRawB64u: fields.publicKeyRawB64u,
    localUid: fields.localUid,
    username: fields.username,
    displayName: fields.displayName,
    createdAt: fields.createdAt,
    challengeB64Url: fields.challengeB64Url,
    ...(fields.email !== undefined ? { email: fields.email } : {}),
    ...(fields.origin !== undefined ? { origin: fields.origin } : {}),
    ...(fields.artifactSha256 !== undefined ? { artifactSha256: fields.artifactSha256 } : {}),
    purpose: ID_PROOF_PURPOSE,
    audience,
  }
}

/**
 * The bytes to sign and verify: UTF-8 of the RFC 8785 canonical JSON of `idProofMessage`.
 *
 * @example sign(null, idProofMessageBytes(fields, 'https://cairn.example'), ed25519PrivateKey)
 */
export function idProofMessageBytes(fields: IdProofFields, audience: string): Uint8Array {
  return canonicalJsonBytes(idProofMessage(fields, audience))
}
