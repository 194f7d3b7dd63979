/**
 * The revocation head an application's runtime answers are bound to: the head of its append-only
 * revocation stream (closing an authority session appends there), or, before anything was revoked,
 * a genesis digest of its own so that two applications never share a head.
 */
import { sha256OfJson } from '../digest/sha256.js'
import type { CoreDeps } from '../usecases/use-case.js'

/** The stream of one application's revocations. */
export const revocationStreamOf = (applicationId: string): string => `runtime.revocations.${applicationId}`

/** The head of an application with no revocation yet. @example genesisRevocationHead('com.example.notes') */
export function genesisRevocationHead(applicationId: string): string {
  return sha256OfJson({ schema: 'cairn.v124.revocation_genesis', applicationId })
}

/** The application's current revocation head. */
export async function revocationHeadOf(deps: Pick<CoreDeps, 'store'>, applicationId: string): Promise<string> {
  const head = await deps.store.streamHead(revocationStreamOf(applicationId))
  return head?.head ?? genesisRevocationHead(applicationId)
}
