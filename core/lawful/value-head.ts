/**
 * `POST /api/sdk/v1/lawful-actions/value-head/derive`: advances a spendable Settlement membership's
 * value head after exactly the expected prior head. The amount is derived (derive.ts) from the
 * sealed start and completion pulses, the law's rate and a Kai pulse the server samples itself;
 * nothing the caller sends enters it. The value moves from the law owner's reserve to the holder's
 * wallet through the value ledger (`executeMovement`), in ONE commit with the membership advanced,
 * the value head record and the answer saved under the request's idempotency coordinates
 * (membership and expected prior head), so a retry answers the same head and never pays twice.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { sha256OfJson } from '../digest/sha256.js'
import { conflict, forbidden, notFound, unprocessable, type DomainError } from '../errors/domain-error.js'
import { kaiMomentAt } from '../time/kai.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import type { ResponseOf } from '../usecases/operation-types.js'
import { reserveAccount, walletAccount } from '../value/accounts.js'
import { idempotencyClaim } from '../value/idempotency.js'
import type { LedgerEntry } from '../value/ledger-entry.js'
import { executeMovement, type MovementPlan, type Refusal } from '../value/movement.js'
import { advancedMembership, deriveValueHead } from './derive.js'
import { lawfulCaller, lawfulResult, onlyMembers, receiptOf, type LawfulCaller } from './lawful-request.js'
import { lawfulMemberships, lawfulValueHeads, type ValueHeadRecord } from './records.js'

type Result = ResponseOf<'deriveValueHead'>

/** @example await deriveLawfulValueHead({ body: { membershipId, expectedPriorValueHeadDigest: null }, … }, deps) */
export const deriveLawfulValueHead: UseCaseFor<'deriveValueHead'> = async (request, deps) => {
  const caller = lawfulCaller(request.principal)
  if (E.isLeft(caller)) return caller
  const body = request.body
  const members = onlyMembers(body, ['membershipId', 'expectedPriorValueHeadDigest'])
  if (E.isLeft(members)) return members
  // The request's own coordinates are its idempotency key: one head after each prior head.
  const coordinates = sha256OfJson({ membershipId: body.membershipId, expectedPriorValueHeadDigest: body.expectedPriorValueHeadDigest })
  const claim = idempotencyClaim('lawful-value-head', caller.right.userId, coordinates, body)
  if (E.isLeft(claim)) return claim
  const result = await executeMovement(deps, {
    idempotency: claim.right,
    plan: () => planSettlement(deps, caller.right, body.membershipId, body.expectedPriorValueHeadDigest),
  })
  if (E.isLeft(result)) return result
  switch (result.right._tag) {
    case 'committed': return E.right(json(result.right.reply as Result))
    case 'replayed': return E.right(json(result.right.saved.reply as Result, { 'idempotent-replayed': 'true' }))
    case 'Refusal': return E.left(unprocessable(`The law owner's reserve holds less Φ than accrued; nothing was written (${result.right.reasonCode})`))
  }
}

async function planSettlement(
  deps: CoreDeps, caller: LawfulCaller, membershipId: string, expectedPrior: string | null,
): Promise<Either<DomainError | Refusal, MovementPlan>> {
  const doc = await lawfulMemberships.get(deps.store, membershipId)
  if (!doc) return E.left(notFound('No Settlement membership has this membershipId'))
  const membership = doc.value
  if (membership.holderUserId !== caller.userId) return E.left(forbidden('Only the membership\'s holder may derive its value head'))
  if (membership.status !== 'spendable') return E.left(conflict('This Settlement membership is spent: the action\'s custody moved on; nothing was written'))
  if (membership.valueHeadDigest !== expectedPrior) {
    return E.left(conflict('expectedPriorValueHeadDigest is not the membership\'s current value head; nothing was written'))
  }
  const sampledAtKaiPulse = kaiMomentAt(deps.clock.now()).pulse
  const derived = deriveValueHead(membership, sampledAtKaiPulse)
  if (derived._tag === 'nothing-accrued') {
    return E.left(unprocessable(`Nothing has accrued since the prior value head at Kai pulse ${sampledAtKaiPulse} (settled through ${membership.settledThroughKaiPulse}, the action runs from ${membership.startedAtKaiPulse} to ${membership.completedAtKaiPulse}); nothing was written`))
  }
  const { head, valueHeadDigest, amount } = derived
  const receiptFor = (entry: LedgerEntry) => receiptOf({
    action: 'value-head-derived', lawDigest: membership.lawDigest, admissionDigest: membership.admissionDigest, membershipId, valueHeadDigest,
    priorValueHeadDigest: expectedPrior, amountPhiMicro: head.amountPhiMicro, throughKaiPulse: head.throughKaiPulse, entryId: entry.entryId,
  }, caller, Date.parse(entry.createdAt)).receiptDigest
  return E.right({
    kind: 'lawful_settlement', unit: 'phi', amount,
    debit: reserveAccount(membership.payerUserId), credit: walletAccount(membership.holderUserId), actorUserId: caller.userId,
    memo: `lawful action ${membership.actionId} through Kai pulse ${head.throughKaiPulse}`,
    // Value paid under a law is as public as value transferred: the payer's and holder's pseudonyms.
    publish: { kind: 'settlement', fromUserId: membership.payerUserId, toUserId: membership.holderUserId },
    alsoWrite: (entry) => {
      const record: ValueHeadRecord = { valueHeadDigest, head, membershipId, throughKaiPulse: head.throughKaiPulse, entryId: entry.entryId, receiptDigest: receiptFor(entry) }
      return [
        lawfulMemberships.put(membershipId, advancedMembership(membership, head, valueHeadDigest), { kind: 'version', version: doc.version }),
        lawfulValueHeads.put(valueHeadDigest, record, { kind: 'absent' }),
      ]
    },
    reply: (committed) => lawfulResult('value-head-derived', {
      lawDigest: membership.lawDigest, admissionDigest: membership.admissionDigest, valueHeadDigest, receiptDigest: receiptFor(committed.entry),
    }),
  })
}
