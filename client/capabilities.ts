/**
 * Delegated capability chains from plain inputs: each link's payload gets its `parentDigest` (the
 * digest of the link before) and `delegationDepth` unless it states its own, and is signed by its
 * issuer's ID key over RFC 8785 bytes (core/runtime/capability-bytes.ts, the server's own rules).
 */
import { toBase64Url } from '../core/proof/bytes.js'
import { capabilityDigestOf, capabilitySigningBytes, type CapabilityPayload } from '../core/runtime/capability-bytes.js'

/** A link's payload; `parentDigest` and `delegationDepth` default to the chained values. */
export type LinkPayload = Omit<CapabilityPayload, 'parentDigest' | 'delegationDepth'> & Partial<Pick<CapabilityPayload, 'parentDigest' | 'delegationDepth'>>

export interface SignedCapabilityLink {
  readonly schema: 'cairn.v124.signed_capability'
  readonly payload: CapabilityPayload
  readonly alg: 'ES256' | 'EdDSA'
  readonly signatureB64u: string
}

/** The full payloads of a chain, root first, each naming the one before (pure). */
export function chainPayloads(links: readonly LinkPayload[]): CapabilityPayload[] {
  const full: CapabilityPayload[] = []
  for (const [depth, payload] of links.entries()) {
    const parent = full[depth - 1]
    full.push({ parentDigest: parent ? capabilityDigestOf(parent) : null, delegationDepth: depth, ...payload } as CapabilityPayload)
  }
  return full
}

/** One signed link (the signature is JWS-form, base64url). */
export function signedLink(payload: CapabilityPayload, alg: 'ES256' | 'EdDSA', signature: Uint8Array): SignedCapabilityLink {
  return { schema: 'cairn.v124.signed_capability', payload, alg, signatureB64u: toBase64Url(signature) }
}

export interface LinkSigner {
  readonly alg: 'ES256' | 'EdDSA'
  sign(bytes: Uint8Array): Promise<Uint8Array>
}

/**
 * @example await signCapabilityChain([{ signer: adaKey, payload: root }, { signer: bobKey, payload: { ...root, actorId: grace } }])
 */
export async function signCapabilityChain(links: readonly { readonly signer: LinkSigner; readonly payload: LinkPayload }[]): Promise<SignedCapabilityLink[]> {
  const payloads = chainPayloads(links.map((link) => link.payload))
  return Promise.all(payloads.map(async (payload, index) => {
    const { signer } = links[index]!
    return signedLink(payload, signer.alg, await signer.sign(capabilitySigningBytes(payload)))
  }))
}
