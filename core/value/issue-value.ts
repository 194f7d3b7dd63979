/**
 * Issuance: the deployment's operator credits a wallet from the `issuance` contra account (how Φ
 * enters a deployment besides checkout). Published in the public wallet ledger like any movement.
 * Reached by the library (`cairn.issueValue`), the CLI (`cairn value issue`) and the operator-only
 * route `POST /operator/value/issue`; the operator credential is checked by those hosts.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { invalidInput, notFound, unprocessable, type DomainError } from '../errors/domain-error.js'
import { getIdentity, getIdentityByUsername } from '../identity/identities.js'
import { quoteInput } from '../errors/quote-input.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { parseMinorUnits, type Unit } from './amount.js'
import { ISSUANCE, walletAccount } from './accounts.js'
import { idempotencyClaim, savedReplies } from './idempotency.js'
import { executeMovement, type CommittedMovement } from './movement.js'
import { PublishedWalletEventCodec } from './wallet-feed.js'

/** Who receives the value: a user id, or (operators type names) a username. */
export type IssueValueInput = ({ readonly userId: string } | { readonly username: string }) & {
  readonly unit: Unit
  /** Decimal string in the unit's smallest denomination. */
  readonly amount: string
  readonly idempotencyKey: string
  readonly memo?: string
}

/** What an issuance answers and saves under its key: the entry, and its public wallet ledger event with its receipt. */
const IssuedCodec = t.readonly(t.type({ entryId: t.string, event: PublishedWalletEventCodec }))
type Issued = t.TypeOf<typeof IssuedCodec>
const savedIssued = savedReplies(IssuedCodec)

export type IssuedValue = Issued & { readonly replayed: boolean }

/** The answer of a committed issuance; an issuance is always published, so its event is there. */
function issuedOf({ entry, event }: CommittedMovement): Issued {
  if (event === null) throw new Error(`Issuance ${entry.entryId} committed without its public wallet ledger event`)
  return { entryId: entry.entryId, event }
}

/** @example await issueValue(deps, { userId, unit: 'phi', amount: '5000000', idempotencyKey: 'grant-2026-06' }) */
export async function issueValue(deps: CoreDeps, input: IssueValueInput): Promise<Either<DomainError, IssuedValue>> {
  const amount = parseMinorUnits(input.amount, input.unit)
  if (!amount.ok) return E.left(invalidInput(amount.error))
  const claim = idempotencyClaim('issuance', 'operator', input.idempotencyKey, input)
  if (E.isLeft(claim)) return claim
  const result = await executeMovement(deps, {
    idempotency: claim.right,
    plan: async () => {
      const identity = 'userId' in input ? await getIdentity(deps, input.userId) : await getIdentityByUsername(deps, input.username)
      if (!identity) return E.left(notFound('userId' in input ? 'userId names no user of this deployment' : `No user is named "${quoteInput(input.username)}" on this deployment`))
      const userId = identity.record.userId
      return E.right({
        kind: 'issuance', unit: input.unit, amount: amount.amount, debit: ISSUANCE, credit: walletAccount(userId), actorUserId: null,
        ...(input.memo !== undefined ? { memo: input.memo } : {}),
        publish: { kind: 'issuance', fromUserId: null, toUserId: userId, inReply: true },
        reply: ({ entry }) => ({ entryId: entry.entryId }),
      })
    },
  })
  if (E.isLeft(result)) return result
  switch (result.right._tag) {
    case 'committed': return E.right({ ...issuedOf(result.right.committed), replayed: false })
    case 'replayed': return E.right({ ...savedIssued(claim.right, result.right.saved), replayed: true })
    case 'Refusal': return E.left(unprocessable(result.right.message))
  }
}
