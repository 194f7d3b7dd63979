/**
 * The trial balance: every account's balance summed per unit. Double entry makes each sum zero;
 * tests, the crash test and the ledger benchmark check it after every run.
 */
import type { CoreDeps } from '../usecases/use-case.js'
import { fromDecimal, UNITS, type Unit } from './amount.js'
import { mayGoNegative, valueAccounts, type AccountRecord } from './accounts.js'

export interface TrialBalance {
  /** Sum over all accounts, per unit: zero when value is conserved. */
  readonly sums: Readonly<Record<Unit, bigint>>
  /** Accounts that must not be negative but are. */
  readonly negative: readonly AccountRecord[]
  /** Value is conserved: every unit sums to zero and no account that must not be negative is. */
  readonly conserved: boolean
  readonly accounts: readonly AccountRecord[]
}

export async function trialBalance(deps: Pick<CoreDeps, 'store'>): Promise<TrialBalance> {
  const accounts: AccountRecord[] = []
  const sums: Record<Unit, bigint> = { phi: 0n, usd: 0n }
  for (const unit of UNITS) {
    let after: string | undefined
    for (;;) {
      const page = await deps.store.query(valueAccounts.name, { index: 'byUnit', equals: [unit], limit: 1000, ...(after ? { after } : {}) })
      for (const doc of page.items) {
        const record = valueAccounts.decode(doc)
        accounts.push(record)
        sums[unit] += fromDecimal(record.balance)
      }
      if (page.nextCursor === null) break
      after = page.nextCursor
    }
  }
  const negative = accounts.filter((account) => !mayGoNegative(account.account) && fromDecimal(account.balance) < 0n)
  return { sums, negative, conserved: UNITS.every((unit) => sums[unit] === 0n) && negative.length === 0, accounts }
}
