/**
 * Paying a battle's escrow out: each payout is one ledger movement from the battle's escrow
 * account, committed together with the battle record marking that payout paid (guarded by the
 * record's version), so each is paid exactly once. Payouts are decided in the commit that ends the
 * battle and paid right after it; if that is interrupted, the `settle` action pays what is left.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { conflict, type DomainError } from '../../errors/domain-error.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import { battleEscrowAccount, walletAccount } from '../../value/accounts.js'
import { fromDecimal } from '../../value/amount.js'
import { executeMovement } from '../../value/movement.js'
import { battleWrite, loadBattle, type BattleRecord } from './battle-records.js'

const ALL_PAID = 'all-paid'

/** Pays every unpaid payout of the battle and answers the battle as it stands after. */
export async function payPending(deps: CoreDeps, battleId: string): Promise<Either<DomainError, BattleRecord>> {
  for (;;) {
    let paidOut = false
    const moved = await executeMovement(deps, {
      plan: async () => {
        const loaded = await loadBattle(deps, battleId)
        const index = loaded?.record.payouts.findIndex((payout) => payout.entryId === null) ?? -1
        if (!loaded || index < 0) {
          paidOut = true
          return E.left(conflict(ALL_PAID))
        }
        const payout = loaded.record.payouts[index]!
        return E.right({
          kind: 'battle_payout', unit: 'phi', amount: fromDecimal(payout.amountPhiMicro), debit: battleEscrowAccount(battleId), credit: walletAccount(payout.userId),
          actorUserId: null, memo: `battle ${battleId}: ${loaded.record.payouts.length === 1 && loaded.record.status === 'settled' ? 'both stakes to the winner' : 'a stake returned'}`,
          alsoWrite: (entry) => [battleWrite(loaded, { ...loaded.record, payouts: loaded.record.payouts.map((p, i) => (i === index ? { ...p, entryId: entry.entryId } : p)) })],
          reply: () => ({}),
        })
      },
    })
    if (paidOut) {
      const loaded = await loadBattle(deps, battleId)
      return loaded ? E.right(loaded.record) : E.left(conflict('No such battle'))
    }
    if (E.isLeft(moved)) return moved
    // An escrow can always pay what it holds: a refusal here means the books disagree, which must never pass silently.
    if (moved.right._tag === 'Refusal') throw new Error(`The escrow of battle ${battleId} cannot pay its payout: ${moved.right.message}`)
  }
}
