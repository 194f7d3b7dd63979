/**
 * Issuance: the deployment's operator credits a wallet from the `issuance` contra account (how Φ
 * enters a deployment before production metering exists). A library call, never an HTTP route.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, notFound, unprocessable, type DomainError } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { parseMinorUnits, type Unit } from './amount.js'
import { ISSUANCE, walletAccount } from './accounts.js'
import { idempotencyClaim } from './idempotency.js'
import { executeMovement } from './movement.js'

export interface IssueValueInput {
  readonly userId: string
  readonly unit: Unit
  /** Decimal string in the unit's smallest denomination. */
  readonly amount: string
  readonly idempotencyKey: string
  readonly memo?: string
}

/** @example await issueValue(deps, { userId, unit: 'phi', amount: '5000000', idempotencyKey: 'grant-2026-06' }) */
export async function issueValue(deps: CoreDeps, input: IssueValueInput): Promise<Either<DomainError, { entryId: string; replayed: boolean }>> {
  const amount = parseMinorUnits(input.amount, input.unit)
  if (!amount.ok) return E.left(invalidInput(amount.error))
  const claim = idempotencyClaim('issuance', 'operator', input.idempotencyKey, input)
  if (E.isLeft(claim)) return claim
  const result = await executeMovement(deps, {
    idempotency: claim.right,
    plan: async () => {
      if (!(await getIdentity(deps, input.userId))) return E.left(notFound('userId names no user of this deployment'))
      return E.right({
        kind: 'issuance', unit: input.unit, amount: amount.amount, debit: ISSUANCE, credit: walletAccount(input.userId), actorUserId: null,
        ...(input.memo !== undefined ? { memo: input.memo } : {}),
        reply: ({ entry }) => ({ entryId: entry.entryId }),
      })
    },
  })
  if (E.isLeft(result)) return result
  switch (result.right._tag) {
    case 'committed': return E.right({ entryId: result.right.committed.entry.entryId, replayed: false })
    case 'replayed': return E.right({ entryId: (result.right.saved.reply as { entryId: string }).entryId, replayed: true })
    case 'Refusal': return E.left(unprocessable(result.right.message))
  }
}
