/**
 * `POST /api/sdk/v1/lawful-actions/admit`: admits one sealed lawful action under a registered law,
 * or transfers its custody, under exact custody continuity. The action's sealed payload names the
 * admission it continues (`priorAdmissionDigest`, null for the first), which must be the request's
 * `expectedPriorAdmissionDigest` and the action's current custody; a first admission is sealed by
 * the law's owner, a transfer by the current custodian. Each admission opens the action's one
 * spendable Settlement membership and spends the one before it. The admission, the custody (its
 * version is the compare-and-swap), both memberships, the log leaf, an action-ledger event and the
 * idempotency record are ONE commit, or nothing is written.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { conflict, forbidden, notFound, unprocessable, type DomainError } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import { commitWithLeaves } from '../tlog/sequence.js'
import { kaiMomentAt } from '../time/kai.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import type { ResponseOf } from '../usecases/operation-types.js'
import { findSaved, saveWrite } from '../value/idempotency.js'
import { keyedLawfulRequest, lawfulResult, receiptOf, verifiedPayload, type LawfulCaller, type SealedPayload } from './lawful-request.js'
import { LawfulAction } from './payloads.js'
import {
  ADMISSION_LEAF_KIND, custodyKey, lawfulAdmissions, lawfulCustody, lawfulLaws, lawfulMemberships, membershipIdOf,
  type AdmissionRecord, type CustodyRecord, type MembershipRecord,
} from './records.js'

type Result = ResponseOf<'admitLawfulAction'>
const REPLAYED = { 'idempotent-replayed': 'true' }

/** @example await admitLawfulAction({ body: { lawDigest, proofObject, expectedPriorAdmissionDigest: null, idempotencyKey: 'a-1' }, … }, deps) */
export const admitLawfulAction: UseCaseFor<'admitLawfulAction'> = async (request, deps) => {
  const body = request.body
  const keyed = await keyedLawfulRequest(deps, request.principal, body, 'lawful-admit', ['lawDigest', 'proofObject', 'expectedPriorAdmissionDigest', 'idempotencyKey'])
  if (E.isLeft(keyed)) return keyed
  const { caller, claim, saved } = keyed.right
  if (saved) return E.right(json(saved.reply as Result, REPLAYED))

  const sealed = await verifiedPayload(deps, body.proofObject.exactBytesB64u, LawfulAction, 'lawful action')
  if (E.isLeft(sealed)) return sealed
  const decided = await decideAdmission(deps, caller, sealed.right, body.lawDigest, body.expectedPriorAdmissionDigest)
  if (E.isLeft(decided)) return decided
  const { writes, record } = decided.right
  const reply = lawfulResult(record.action, { lawDigest: record.lawDigest, admissionDigest: record.admissionDigest, receiptDigest: record.receiptDigest })
  const { outcome } = await commitWithLeaves(
    deps,
    [...writes, saveWrite(claim, { status: 'committed', reply, entryId: null, createdAt: record.admittedAt })],
    [{ kind: ADMISSION_LEAF_KIND, lawDigest: record.lawDigest, actionId: record.actionId, admissionDigest: record.admissionDigest, priorAdmissionDigest: record.priorAdmissionDigest }],
    { actions: [{ kind: 'record', action: record.action === 'admitted' ? 'lawful_action_admitted' : 'lawful_action_transferred', actorUserId: caller.userId }] },
  )
  if (outcome.ok) return E.right(json(reply))
  const again = await findSaved(deps, claim)
  if (E.isLeft(again)) return again
  if (again.right) return E.right(json(again.right.reply as Result, REPLAYED))
  return E.left(conflict('The action\'s custody changed while this admission was decided; nothing was written. Read the current admission and send it as expectedPriorAdmissionDigest'))
}

/** Reads the law, the custody and the current membership, and decides the admission's writes. */
async function decideAdmission(
  deps: CoreDeps, caller: LawfulCaller, sealed: SealedPayload<LawfulAction>, lawDigest: string, expectedPrior: string | null,
): Promise<Either<DomainError, { writes: readonly Write[]; record: AdmissionRecord }>> {
  const { payload: action, payloadSha256: admissionDigest, ownerUserId: sealerUserId } = sealed
  if (action.lawDigest !== lawDigest) return E.left(unprocessable('The sealed action names another law than body.lawDigest; nothing was written'))
  if (action.priorAdmissionDigest !== expectedPrior) {
    return E.left(unprocessable('The sealed action continues another custody than body.expectedPriorAdmissionDigest: its priorAdmissionDigest must equal it; nothing was written'))
  }
  if (action.completedAtKaiPulse <= action.startedAtKaiPulse) return E.left(unprocessable('The sealed action completes at or before it starts; nothing was written'))
  if (caller.userId !== sealerUserId && caller.userId !== action.custodianUserId) {
    return E.left(forbidden('Only the user who sealed the action or the custodian it names may admit it'))
  }
  const law = (await lawfulLaws.get(deps.store, lawDigest))?.value
  if (!law) return E.left(notFound('No law with this lawDigest is registered here'))
  if (action.completedAtKaiPulse - action.startedAtKaiPulse > law.law.maxPulsesPerAction) {
    return E.left(unprocessable(`The sealed action lasts longer than the law's maxPulsesPerAction (${law.law.maxPulsesPerAction}); nothing was written`))
  }
  const custodyDoc = await lawfulCustody.get(deps.store, custodyKey(lawDigest, action.actionId))
  const custody = custodyDoc?.value
  let prior: { readonly value: MembershipRecord; readonly version: number } | undefined
  if (expectedPrior === null) {
    if (custody) return E.left(conflict('This action is admitted already; to transfer it, send its current admission digest as expectedPriorAdmissionDigest'))
    if (sealerUserId !== law.ownerUserId) return E.left(forbidden('A first admission must be sealed by the law\'s owner, who pays for it'))
  } else {
    if (!custody || custody.admissionDigest !== expectedPrior) {
      return E.left(conflict('expectedPriorAdmissionDigest is not the action\'s current admission; custody is continued only from the current one, nothing was written'))
    }
    if (sealerUserId !== custody.custodianUserId) return E.left(forbidden('A transfer must be sealed by the action\'s current custodian'))
    if (action.custodianUserId === custody.custodianUserId) return E.left(unprocessable('A transfer must name another custodian than the current one'))
    prior = await lawfulMemberships.get(deps.store, custody.membershipId)
    const membership = prior?.value
    if (!membership || membership.status !== 'spendable') return E.left(conflict('The action\'s Settlement membership is not spendable; nothing was written'))
    if (membership.startedAtKaiPulse !== action.startedAtKaiPulse || membership.completedAtKaiPulse !== action.completedAtKaiPulse) {
      return E.left(unprocessable('A transfer must keep the sealed start and completion pulses of the admitted action'))
    }
  }
  if (!(await getIdentity(deps, action.custodianUserId))) return E.left(unprocessable('custodianUserId names no user of this deployment'))

  const now = deps.clock.now()
  const kind = expectedPrior === null ? 'admitted' as const : 'transferred' as const
  const membershipId = membershipIdOf(admissionDigest)
  const priorMembership = prior?.value
  const { receiptDigest } = receiptOf({
    action: kind, lawDigest, actionId: action.actionId, admissionDigest, priorAdmissionDigest: expectedPrior, membershipId,
    custodianUserId: action.custodianUserId, sealedSha256: sealed.sealedSha256,
  }, caller, now)
  const record: AdmissionRecord = {
    admissionDigest, action: kind, lawDigest, actionId: action.actionId, priorAdmissionDigest: expectedPrior, sealerUserId,
    custodianUserId: action.custodianUserId, startedAtKaiPulse: action.startedAtKaiPulse, completedAtKaiPulse: action.completedAtKaiPulse,
    membershipId, admittedAt: new Date(now).toISOString(), admittedAtKaiPulse: kaiMomentAt(now).pulse, receiptDigest,
  }
  const membership: MembershipRecord = {
    membershipId, lawDigest, actionId: action.actionId, admissionDigest, holderUserId: action.custodianUserId, payerUserId: law.ownerUserId,
    ratePhiMicroPerPulse: law.law.ratePhiMicroPerPulse, startedAtKaiPulse: action.startedAtKaiPulse, completedAtKaiPulse: action.completedAtKaiPulse,
    // What the prior holder has not settled passes on with the custody.
    settledThroughKaiPulse: priorMembership?.settledThroughKaiPulse ?? action.startedAtKaiPulse,
    valueHeadDigest: null, status: 'spendable', spentByAdmissionDigest: null,
  }
  const nextCustody: CustodyRecord = {
    lawDigest, actionId: action.actionId, admissionDigest, custodianUserId: action.custodianUserId, membershipId, admissions: (custody?.admissions ?? 0) + 1,
  }
  const writes: Write[] = [
    lawfulAdmissions.put(admissionDigest, record, { kind: 'absent' }),
    lawfulCustody.put(custodyKey(lawDigest, action.actionId), nextCustody, unchangedSince(custodyDoc?.version ?? null)),
    lawfulMemberships.put(membershipId, membership, { kind: 'absent' }),
  ]
  if (prior && priorMembership) {
    writes.push(lawfulMemberships.put(priorMembership.membershipId, { ...priorMembership, status: 'spent', spentByAdmissionDigest: admissionDigest }, { kind: 'version', version: prior.version }))
  }
  return E.right({ writes, record })
}
