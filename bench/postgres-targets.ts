/**
 * The PostgreSQL rows of bench:store and bench:ledger: PostgresStore in both isolations on a
 * throwaway cluster the bench starts itself (fsync on, as in production; adapters/postgres/testing)
 * and removes at the end. Without server binaries the rows are left out, and the bench says why.
 */
import { PostgresStore } from '../adapters/postgres/postgres-store.js'
import type { CommitIsolation } from '../adapters/postgres/postgres-commit.js'
import { postgresSkipReason, startThrowawayCluster, type ThrowawayCluster } from '../adapters/postgres/testing/throwaway-cluster.js'
import type { Store } from '../ports/store.js'
import type { SecondHost } from './ledger-wallets.js'

export interface PostgresBenchTarget {
  readonly name: string
  open(): Promise<{ store: Store; dispose(): Promise<void>; secondHost: SecondHost }>
}

/** The targets, and a stop for the cluster behind them (call once the bench is done). */
export async function postgresBenchTargets(): Promise<{ targets: PostgresBenchTarget[]; note?: string; stop(): Promise<void> }> {
  if (postgresSkipReason !== undefined) return { targets: [], note: `PostgreSQL left out: ${postgresSkipReason}`, stop: async () => undefined }
  const cluster: ThrowawayCluster = await startThrowawayCluster({ durable: true })
  const connectionString = await cluster.createDatabase('cairn_bench')
  let schemas = 0
  const target = (isolation: CommitIsolation): PostgresBenchTarget => ({
    name: `postgres (${isolation})`,
    open: async () => {
      schemas += 1
      const options = { connectionString, schema: `bench_${schemas}`, isolation }
      const store = new PostgresStore({ ...options, poolSize: 40 })
      return { store, dispose: () => store.close(), secondHost: { kind: 'postgres', options } }
    },
  })
  return { targets: [target('locks'), target('serializable')], stop: () => cluster.remove() }
}
