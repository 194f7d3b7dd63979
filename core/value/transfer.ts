/**
 * `POST /api/connect/transfers`: move value from the token owner's wallet to another user's, once.
 * Concurrent transfers from one wallet never overdraw it: the balance's version guards the commit,
 * and a lost race is decided again from the new balance (movement.ts).
 */
import * as E from 'fp-ts/lib/Either.js'
import { invalidInput, notFound, unprocessable } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import type { ResponseOf } from '../usecases/operation-types.js'
import { parseMinorUnits, type Unit } from './amount.js'
import { walletAccount } from './accounts.js'
import { idempotencyClaim } from './idempotency.js'
import { executeMovement } from './movement.js'
import { actingUserId } from './principal-user.js'

export interface TransferBody {
  readonly recipientUserId: string
  readonly unit: { readonly currency: Unit; readonly amount: string }
  readonly idempotencyKey?: string
  readonly memo?: string
}

export const MAX_MEMO_LENGTH = 500

export const createTransfer: UseCaseFor<'createTransfer'> = async (request, deps) => {
  const sender = actingUserId(request.principal)
  if (E.isLeft(sender)) return sender
  const body: TransferBody = request.body
  const amount = parseMinorUnits(body.unit.amount, body.unit.currency)
  if (!amount.ok) return E.left(invalidInput(`unit.${amount.error}`))
  if (body.memo !== undefined && body.memo.length > MAX_MEMO_LENGTH) return E.left(invalidInput(`memo must be at most ${MAX_MEMO_LENGTH} characters`))
  if (body.recipientUserId === sender.right) return E.left(invalidInput('recipientUserId must be another user than the sender'))
  const claim = body.idempotencyKey === undefined ? undefined : idempotencyClaim('transfer', sender.right, body.idempotencyKey, body)
  if (claim && E.isLeft(claim)) return claim

  const result = await executeMovement(deps, {
    ...(claim ? { idempotency: claim.right } : {}),
    plan: async () => {
      if (!(await getIdentity(deps, body.recipientUserId))) return E.left(notFound('recipientUserId names no user of this deployment'))
      return E.right({
        kind: 'transfer', unit: body.unit.currency, amount: amount.amount,
        debit: walletAccount(sender.right), credit: walletAccount(body.recipientUserId), actorUserId: sender.right, memo: body.memo,
        publish: { kind: 'transfer', fromUserId: sender.right, toUserId: body.recipientUserId, inReply: true },
        reply: ({ entry }) => ({ ok: true, transferId: entry.entryId }),
      })
    },
  })
  if (E.isLeft(result)) return result
  switch (result.right._tag) {
    case 'committed': return E.right(json(result.right.reply as ResponseOf<'createTransfer'>))
    case 'replayed': return E.right(json(result.right.saved.reply as ResponseOf<'createTransfer'>, { 'idempotent-replayed': 'true' }))
    case 'Refusal': return E.left(unprocessable(result.right.message))
  }
}
