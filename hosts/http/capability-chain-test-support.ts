/**
 * Test support for delegated capability chains: signs a chain root first the way a client would
 * (each link's `parentDigest` and `delegationDepth` chained from the one before unless a test
 * states its own), and stand-alone signers with a matching signature check for tests of the pure
 * chain rules that need no identity store.
 */
import { generateKeyPairSync, sign as signBytes, verify as verifyBytes, type KeyObject } from 'node:crypto'
import { fromBase64Url, toBase64Url } from '../../core/encoding/base64url.js'
import type { SignedByBoundKey, SignedCapability } from '../../core/runtime/capability-chain.js'
import { capabilitySigningBytes } from '../../core/runtime/execution-plan.js'
import { chainPayloads, type LinkPayload } from '../../client/index.js'

/** Whoever signs a link: an identity holder, or a `testSigner`. */
export interface CapabilitySigner {
  readonly userId: string
  readonly keyId: string
  sign(bytes: Uint8Array): string
}

/** A link to sign: its payload, where `parentDigest` and `delegationDepth` default to the chained values. */
export interface LinkToSign {
  readonly signer: CapabilitySigner
  readonly payload: LinkPayload
}

/**
 * @example signCapabilityChain([{ signer: ada, payload: root }, { signer: bob, payload: { ...root, actorId: grace.userId } }])
 */
export function signCapabilityChain(links: readonly LinkToSign[]): SignedCapability[] {
  // The chaining is cairn/client's; only the signing is synchronous here (node:crypto Ed25519).
  return chainPayloads(links.map((link) => link.payload)).map((payload, index) => ({
    schema: 'cairn.v124.signed_capability', payload, alg: 'EdDSA', signatureB64u: links[index]!.signer.sign(capabilitySigningBytes(payload)),
  }))
}

const publicKeys = new Map<string, KeyObject>()

/** An Ed25519 signer outside any identity store; `signedByTestSigners` knows its key. */
export function testSigner(userId: string): CapabilitySigner {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const keyId = `key-${userId}-${publicKeys.size}`
  publicKeys.set(keyId, publicKey)
  return { userId, keyId, sign: (bytes) => toBase64Url(signBytes(null, bytes, privateKey)) }
}

/** The chain's signature check for `testSigner` keys: `keyId` must be one of `userId`'s. */
export function signedByTestSigners(signers: readonly CapabilitySigner[]): SignedByBoundKey {
  return async (userId, link) => {
    const bound = signers.some((signer) => signer.userId === userId && signer.keyId === link.payload.issuerKeyId)
    const key = publicKeys.get(link.payload.issuerKeyId)
    const signature = fromBase64Url(link.signatureB64u)
    return bound && !!key && !!signature && verifyBytes(null, capabilitySigningBytes(link.payload), key, signature)
  }
}
