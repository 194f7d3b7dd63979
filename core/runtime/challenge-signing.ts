/** The exact bytes an identity key signs for a ProofConsent challenge (pure: clients and the server share it). */
import type { ComponentType } from '../contract/components.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'

export type ProofAuthorityChallenge = ComponentType<'V124ProofAuthorityChallenge'>

/** RFC 8785 JSON of the challenge without `proof`. */
export function challengeSigningBytes(challenge: ProofAuthorityChallenge): Uint8Array {
  const { proof: _proof, ...signed } = challenge
  return canonicalJsonBytes(signed)
}
