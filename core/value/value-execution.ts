/**
 * Reserve and Settlement execution (`/api/sdk/v1/value/…`). A Reserve sets Φ aside from the
 * caller's wallet into the caller's reserve; a Settlement pays from that reserve to a counterparty's
 * wallet (or back to the caller's own, a release). Each is one movement, committed with its receipt
 * and its outcome under `intent.idempotencyKey`, or refused with a zero-write outcome that says why
 * and is saved too, so the outcome is recoverable by key before any retry: `committed`,
 * `zero-write`, or `unknown` (nothing saved: nothing happened, a retry is safe).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { sha256OfJson } from '../digest/sha256.js'
import type { DomainError } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import { kaiMomentAt } from '../time/kai.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { parseMinorUnits } from './amount.js'
import { reserveAccount, walletAccount } from './accounts.js'
import { PhiValueExecutionOutcome } from '../contract/schemas/sdk.js'
import { idempotencyClaim, savedReplies, valueIdempotency, type IdempotencyClaim } from './idempotency.js'
import { executeMovement, refusal, type MovementFacts, type MovementPlan, type Refusal } from './movement.js'
import { sessionBoundBy } from '../runtime/authority-sessions.js'
import { runtimeCaller } from '../runtime/runtime-caller.js'

export type ValueExecutionKind = 'reserve' | 'settlement'

/** The intent schema each route accepts. */
export const INTENT_SCHEMAS: Readonly<Record<ValueExecutionKind, string>> = {
  reserve: 'cairn.value.reserve.v1',
  settlement: 'cairn.value.settlement.v1',
}
export const VALUE_RECEIPT_SCHEMA = 'cairn.value_execution_receipt.v1'

interface ValueExecutionBody {
  readonly intent: {
    readonly schema: string
    readonly idempotencyKey: string
    readonly amountPhiMicro?: string
    readonly counterpartySubjectId?: string
    readonly expectedPriorHead?: string
    readonly memo?: string
  }
  readonly authorityDigest: string
  readonly applicationId?: string
}

const IDEMPOTENCY_SCOPE = 'value-execution'
/** The consent an authority session must carry for value to move under it. */
const VALUE_EXECUTE_SCOPE = 'cairn:value.execute'

/** Saved outcomes read back with the contract's codec of what the routes answer. */
const savedOutcome = savedReplies(PhiValueExecutionOutcome)

function executeValue(kind: ValueExecutionKind): UseCaseFor<'executeReserve'> & UseCaseFor<'executeSettlement'> {
  return async (request, deps) => {
    const body: ValueExecutionBody = request.body
    // The application acts for its person only under the authority the request names: an open
    // authority session of theirs, consented to value execution (docs/value.md). Checked before
    // anything is claimed, so a refusal writes nothing and saves no outcome.
    const caller = runtimeCaller(request.principal, body.applicationId)
    if (E.isLeft(caller)) return caller
    const authority = await sessionBoundBy(deps, caller.right, body.authorityDigest, VALUE_EXECUTE_SCOPE)
    if (E.isLeft(authority)) return authority
    const actor = caller.right.subject
    const claim = idempotencyClaim(IDEMPOTENCY_SCOPE, actor, body.intent.idempotencyKey, body)
    if (E.isLeft(claim)) return claim
    const intentDigest = sha256OfJson(body.intent)
    // Read once: a refusal answers the terminal time it saved, so a replay answers the same.
    let terminalRead: ReturnType<typeof terminalFields> | undefined
    const terminal = () => (terminalRead ??= terminalFields(deps))
    const result = await executeMovement(deps, {
      idempotency: claim.right,
      plan: () => planExecution(deps, kind, actor, body),
      saveRefusal: (refused) => zeroWrite(claim.right, intentDigest, refused, terminal()),
    })
    if (E.isLeft(result)) return result
    switch (result.right._tag) {
      case 'committed': return E.right(json(committedOutcome(body.intent.idempotencyKey, intentDigest, body, result.right.committed)))
      case 'replayed': return E.right(json(savedOutcome(claim.right, result.right.saved), { 'idempotent-replayed': 'true' }))
      case 'Refusal': return E.right(json(zeroWrite(claim.right, intentDigest, result.right, terminal())))
    }
  }

  async function planExecution(deps: CoreDeps, kind: ValueExecutionKind, actor: string, body: ValueExecutionBody): Promise<Either<DomainError | Refusal, MovementPlan>> {
    const intent = body.intent
    if (intent.schema !== INTENT_SCHEMAS[kind]) return E.left(refusal('intent_schema_mismatch', `intent.schema must be ${INTENT_SCHEMAS[kind]} on this route`))
    if (intent.amountPhiMicro === undefined) return E.left(refusal('amount_missing', 'intent.amountPhiMicro is required'))
    const amount = parseMinorUnits(intent.amountPhiMicro, 'phi')
    if (!amount.ok) return E.left(refusal('invalid_amount', `intent.${amount.error}`))
    let credit = reserveAccount(actor)
    if (kind === 'settlement') {
      if (intent.counterpartySubjectId === undefined) return E.left(refusal('counterparty_missing', 'intent.counterpartySubjectId is required for a Settlement'))
      if (intent.counterpartySubjectId !== actor && !(await getIdentity(deps, intent.counterpartySubjectId))) {
        return E.left(refusal('unknown_counterparty', 'intent.counterpartySubjectId names no user of this deployment'))
      }
      credit = walletAccount(intent.counterpartySubjectId)
    }
    const intentDigest = sha256OfJson(intent)
    return E.right({
      kind, unit: 'phi', amount: amount.amount,
      debit: kind === 'reserve' ? walletAccount(actor) : reserveAccount(actor), credit, actorUserId: actor,
      ...(intent.memo !== undefined ? { memo: intent.memo } : {}),
      ...(intent.expectedPriorHead !== undefined ? { expectedDebitHead: intent.expectedPriorHead } : {}),
      reply: (committed) => committedOutcome(intent.idempotencyKey, intentDigest, body, committed),
    })
  }
}

/** The outcome of a committed execution: the plan saves it under the key, and the route answers it. */
function committedOutcome(idempotencyKey: string, intentDigest: string, body: ValueExecutionBody, committed: MovementFacts) {
  const { entry } = committed
  const receipt = {
    schema: VALUE_RECEIPT_SCHEMA,
    kind: entry.kind,
    entryId: entry.entryId,
    entryDigest: committed.entryDigest,
    intentDigest,
    authorityDigest: body.authorityDigest,
    ...(body.applicationId !== undefined ? { applicationId: body.applicationId } : {}),
    amountPhiMicro: entry.amount,
    debitAccount: entry.debit,
    creditAccount: entry.credit,
    debitAccountHead: committed.debitAccount.head,
    creditAccountHead: committed.creditAccount.head,
    committedAt: entry.createdAt,
    pulse: entry.pulse,
  }
  return {
    ok: true, status: 'committed' as const, idempotencyKey, intentDigest, receipt, receiptDigest: sha256OfJson(receipt),
    terminalAt: entry.createdAt, terminalAtKaiUPulse: kaiMomentAt(Date.parse(entry.createdAt)).uPulse,
  }
}

function zeroWrite(claim: IdempotencyClaim, intentDigest: string, refused: Refusal, terminal: { terminalAt: string; terminalAtKaiUPulse: number }) {
  return { ok: false, status: 'zero-write' as const, idempotencyKey: claim.key, intentDigest, reasonCode: refused.reasonCode, reason: refused.message, writes: 0, ...terminal }
}

function terminalFields(deps: Pick<CoreDeps, 'clock'>) {
  const now = deps.clock.now()
  return { terminalAt: new Date(now).toISOString(), terminalAtKaiUPulse: kaiMomentAt(now).uPulse }
}

export const executeReserve = executeValue('reserve')
export const executeSettlement = executeValue('settlement')

/** `GET …/value/executions/by-idempotency/{idempotencyKey}`: the saved outcome, or `unknown`. */
export const getValueExecutionByIdempotency: UseCaseFor<'getValueExecutionByIdempotency'> = async (request, deps) => {
  // The same application check as execution: only the application's own token reads its person's outcomes.
  const caller = runtimeCaller(request.principal)
  if (E.isLeft(caller)) return caller
  const key = request.params.idempotencyKey
  const claim = idempotencyClaim(IDEMPOTENCY_SCOPE, caller.right.subject, key, null)
  if (E.isLeft(claim)) return claim
  const doc = await valueIdempotency.get(deps.store, claim.right.storeKey)
  if (doc) return E.right(json(savedOutcome(claim.right, doc.value)))
  return E.right(json({ ok: false, status: 'unknown', idempotencyKey: key, reasonCode: 'not_found', reason: 'No outcome is saved under this key: nothing was committed, so a retry is safe', writes: 0 }))
}
