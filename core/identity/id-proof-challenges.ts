/**
 * Used ID proof challenges. A challenge is client-generated, so the service remembers each one it
 * accepted — keyed by the SHA-256 of its bytes, expected absent in the same commit as the identity
 * and session it produced — and a replayed proof writes nothing.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const ID_PROOF_CHALLENGES = 'id-proof-challenges'

const UsedChallengeRecordCodec = t.readonly(t.type({ usedAt: t.string, keyId: t.string }))
export type UsedChallengeRecord = t.TypeOf<typeof UsedChallengeRecordCodec>

export const idProofChallenges = typedCollection({ name: ID_PROOF_CHALLENGES, indexes: [{ name: 'byUsedAt', fields: ['usedAt'] }] }, UsedChallengeRecordCodec)
export const idProofChallengesCollection: CollectionSpec = idProofChallenges.spec

/**
 * The write that claims a challenge; a commit carrying it fails if the challenge was used before.
 *
 * @example claimChallengeWrite(proof.challengeSha256, { usedAt: now, keyId: proof.keyId })
 */
export function claimChallengeWrite(challengeSha256: string, record: UsedChallengeRecord): Write {
  return idProofChallenges.put(challengeSha256, record, { kind: 'absent' })
}

/** Whether a challenge was already used (a read before deciding; the commit still guards the race). */
export async function isChallengeUsed(deps: Pick<CoreDeps, 'store'>, challengeSha256: string): Promise<boolean> {
  return (await deps.store.get(ID_PROOF_CHALLENGES, challengeSha256)) !== undefined
}
