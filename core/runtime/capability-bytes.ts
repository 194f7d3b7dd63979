/**
 * What a capability's issuer signs and how a delegated link names its parent — pure, on RFC 8785
 * and @noble's SHA-256, so the server and `cairn/client` (browsers included) compute the same bytes.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { ComponentType } from '../contract/components.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'

export type CapabilityPayload = ComponentType<'V124CapabilityPayload'>

/** The bytes a capability's issuer signs: RFC 8785 JSON of its payload. */
export function capabilitySigningBytes(payload: CapabilityPayload): Uint8Array {
  return canonicalJsonBytes(payload)
}

/**
 * The `parentDigest` a delegated capability names: SHA-256 of its parent's signing bytes. The
 * payload, not the signed wrapper, so a re-encoded (malleable) signature cannot orphan a child.
 */
export function capabilityDigestOf(payload: CapabilityPayload): ComponentType<'V124VerifiedCapabilityDigest'> {
  return { algorithm: 'sha-256', binds: 'verified-capability', value: bytesToHex(sha256(capabilitySigningBytes(payload))) }
}
