/**
 * Granting and revoking access to a domain's private additions through the domain itself: an
 * event of the reserved namespace `cairn.access-grants` in a committed plan is a grant or a
 * revocation, applied in the same commit that appends it, so the domain's chain records every
 * change of access and a grant exists exactly when its event committed.
 *
 *   { "grant":  { "accessGrantKey", "viewerSubjectId", "namespaces": [...], "accessKeyJwk": { kty, crv, x, y } } }
 *   { "revoke": { "accessGrantKey" } }
 *
 * `accessGrantKey` is `grantKeyOf(handle)`: the application draws a random handle, hands it to the
 * viewer out of band and puts only its key in the (replayable) event. Knowing a key is no
 * authority: an access-grants event is accepted only when its member's verified actor owns the
 * domain, its grant is issued by that actor (and opens only that actor's payloads), and a revoke
 * only from the grant's issuer; anything else refuses the execute as `capability-invalid`. The grant's sealed source
 * is the member's candidate; the viewer's subject source is the sealed source the viewer subject
 * published last (it must have published one). The grant's head is the domain head its event
 * reached, so the viewer learns the `expectedGrantHead` to pin from the replay.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Write } from '../../../ports/store.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import type { ExecutionRefusal } from '../verify-transition-set.js'
import { portableSourceOf, subjectProjection } from '../subject-namespaces.js'
import { checkedGrantTerms, grantRecordOf, grantWrite, type GrantTerms } from './access-grants.js'
import { domainKeyOf, type DomainRef, type PortableSealedArtifact } from './domain-records.js'
import { domainGrants } from './grant-record.js'

/** The namespace whose events grant and revoke access. */
export const ACCESS_GRANTS_NAMESPACE = 'cairn.access-grants'

export type GrantChange =
  | ({ readonly kind: 'grant'; readonly accessGrantKey: string } & GrantTerms)
  | { readonly kind: 'revoke'; readonly accessGrantKey: string }

const GRANT_KEY = /^[0-9a-f]{64}$/
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const onlyMembers = (value: Record<string, unknown>, names: readonly string[]) => Object.keys(value).every((name) => names.includes(name))

/** Pure: the change an access-grants event makes, or a sentence saying what is wrong with it. */
export function parseGrantEvent(event: Record<string, unknown>): GrantChange | string {
  if (isObject(event.revoke) && onlyMembers(event, ['revoke'])) {
    const { accessGrantKey } = event.revoke
    if (!onlyMembers(event.revoke, ['accessGrantKey']) || typeof accessGrantKey !== 'string' || !GRANT_KEY.test(accessGrantKey)) return 'revoke must be { accessGrantKey } with a 64-hex grant key'
    return { kind: 'revoke', accessGrantKey }
  }
  if (!isObject(event.grant) || !onlyMembers(event, ['grant'])) return `an ${ACCESS_GRANTS_NAMESPACE} event is { grant: … } or { revoke: … }`
  const grant = event.grant
  if (!onlyMembers(grant, ['accessGrantKey', 'viewerSubjectId', 'namespaces', 'accessKeyJwk'])) return 'grant has only accessGrantKey, viewerSubjectId, namespaces and accessKeyJwk'
  if (typeof grant.accessGrantKey !== 'string' || !GRANT_KEY.test(grant.accessGrantKey)) return 'grant.accessGrantKey must be a 64-hex grant key'
  const terms = checkedGrantTerms({ viewerSubjectId: grant.viewerSubjectId, namespaces: grant.namespaces, accessKeyJwk: grant.accessKeyJwk })
  if (typeof terms === 'string') return `grant.${terms}`
  return { kind: 'grant', accessGrantKey: grant.accessGrantKey, ...terms }
}

/** One access change of a plan: the parsed event, the member's candidate, its verified actor and the domain head its event reaches. */
export interface PlannedGrantChange {
  readonly change: GrantChange
  readonly source: PortableSealedArtifact
  readonly issuerSubjectId: string
  readonly eventHead: string
}

const mismatch = (message: string): Either<ExecutionRefusal, never> => E.left({ reason: 'plan-mismatch', message })
const notEntitled = (message: string): Either<ExecutionRefusal, never> => E.left({ reason: 'capability-invalid', message })

/**
 * The writes of a plan's access changes in `domain`: a new grant (its key not taken, the viewer's
 * published source attached) or the deletion of an existing grant of this domain (version-guarded).
 * Every change must come from the domain owner as verified actor, and a revoke from the grant's
 * issuer. Each grant names its member's candidate as its sealed source, its actor as issuer and
 * the domain head its event reaches.
 *
 * @example await grantChangeWrites(deps, { ...domain, ownerSubjectId }, [{ change, source: member.candidate, issuerSubjectId: actorId, eventHead }], nowMs)
 */
export async function grantChangeWrites(
  deps: Pick<CoreDeps, 'store' | 'blobs'>, domain: DomainRef & { readonly ownerSubjectId: string | undefined },
  changes: readonly PlannedGrantChange[], nowMs: number,
): Promise<Either<ExecutionRefusal, Write[]>> {
  const keys = changes.map(({ change }) => change.accessGrantKey)
  if (new Set(keys).size !== keys.length) return mismatch('a plan changes each access grant at most once')
  const ref = { applicationId: domain.applicationId, domainId: domain.domainId }
  const writes: Write[] = []
  for (const { change, source, issuerSubjectId, eventHead } of changes) {
    if (domain.ownerSubjectId === undefined || issuerSubjectId !== domain.ownerSubjectId) {
      return notEntitled(`${ACCESS_GRANTS_NAMESPACE} events of domain ${domain.domainId} are accepted only from its owner as the member's verified actor`)
    }
    const stored = await domainGrants.get(deps.store, change.accessGrantKey)
    if (change.kind === 'revoke') {
      if (!stored || stored.value.domainKey !== domainKeyOf(ref)) return mismatch('revoke names no access grant of this domain')
      if (stored.value.issuerSubjectId !== issuerSubjectId) return notEntitled('a grant is revoked only by its issuer')
      writes.push({ kind: 'delete', collection: domainGrants.name, key: change.accessGrantKey, expect: { kind: 'version', version: stored.version } })
      continue
    }
    if (stored) return mismatch('grant.accessGrantKey is taken: draw a new handle')
    const viewerSource = await publishedSource(deps, change.viewerSubjectId)
    if (!viewerSource) return mismatch(`the viewer subject ${change.viewerSubjectId} has published no sealed source (POST /api/sdk/v1/sources/publish) to bind the grant to`)
    const terms = { ...change, issuerSubjectId, accessGrantSourceArtifact: source, viewerSubjectSourceArtifact: viewerSource }
    writes.push(grantWrite(change.accessGrantKey, grantRecordOf(ref, terms, { grantedAtMs: nowMs, grantHead: eventHead })))
  }
  return E.right(writes)
}

/** The sealed source a subject published last, with its exact bytes from custody. */
async function publishedSource(deps: Pick<CoreDeps, 'store' | 'blobs'>, subjectId: string): Promise<PortableSealedArtifact | undefined> {
  const latest = (await subjectProjection(deps, subjectId))?.latest
  const bytes = latest && (await deps.blobs.get(latest.artifactSha256))
  return latest && bytes ? portableSourceOf(latest, bytes) : undefined
}
