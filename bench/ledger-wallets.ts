/**
 * The ledger bench:ledger and bench:ledger-pages send transfers through: WALLETS users on `store`,
 * each funded with 10^14 micro-Φ, and `send`, the `createTransfer` use case of 1 micro-Φ signed in
 * as the sender, as a host would call it.
 */
import * as E from 'fp-ts/lib/Either.js'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore } from '../adapters/memory/index.js'
import { CryptoEntropy, SystemClock } from '../adapters/system/index.js'
import { createValueUser, valueBearer } from '../conformance/support/value-users.js'
import type { CoreDeps, UseCase } from '../core/usecases/use-case.js'
import { issueValue, valueUseCases } from '../core/value/index.js'
import type { Store } from '../ports/store.js'

export const WALLETS = 64

/** Where a second host opens the same data as the bench's store (bench/ledger-second-host.ts). */
export type SecondHost =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly options: { readonly connectionString: string; readonly schema: string; readonly isolation: 'locks' | 'serializable' } }

export interface FundedLedger {
  readonly deps: CoreDeps
  readonly users: readonly string[]
  /** True when the transfer committed (or replayed), false when it was refused. */
  send(from: string, to: string, idempotencyKey: string): Promise<boolean>
}

/** Call after the ledger's collections are declared on `store`. */
export async function fundedLedger(store: Store): Promise<FundedLedger> {
  const deps = ledgerDeps(store)
  const users = await Promise.all(Array.from({ length: WALLETS }, (_, i) => createValueUser(store, `bench${i}`)))
  for (const userId of users) {
    const issued = await issueValue(deps, { userId, unit: 'phi', amount: String(10n ** 14n), idempotencyKey: `seed-${userId}` })
    if (E.isLeft(issued)) throw new Error(issued.left.message)
  }
  return { deps, users, send: sender(deps) }
}

/** What a host's use cases get, on `store`. */
export function ledgerDeps(store: Store): CoreDeps {
  return {
    clock: new SystemClock(), entropy: new CryptoEntropy(), store, blobs: new MemoryBlobStore(), events: new MemoryEventBus(), keys: new MemoryKeyStore(),
    config: { baseUrl: 'http://bench.local', deployment: {} },
  }
}

/** `send` of a funded ledger, through `deps`. */
export function sender(deps: CoreDeps): FundedLedger['send'] {
  const transfer = valueUseCases.createTransfer as unknown as UseCase
  return async (from, to, idempotencyKey) => {
    const reply = await transfer({ params: {}, query: {}, body: { recipientUserId: to, unit: { currency: 'phi', amount: '1' }, idempotencyKey }, principal: valueBearer(from) }, deps)
    return E.isRight(reply)
  }
}
