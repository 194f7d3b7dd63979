/**
 * The floor of a transfer, as bench:ledger and bench:ledger-pages commit it: the rows a transfer
 * writes (two balances, the entry, the idempotency record, the log leaf, the action and feed
 * events) with values of a transfer's size, as one bare Store commit — no reads, no decisions, no
 * digests of ours. Keys are made from `n`, so they arrive in order.
 */
import type { CollectionSpec, Write } from '../ports/store.js'

/** Where the floor writes its balances and keys: shaped and indexed like the ledger's own, never read by it. */
export const FLOOR_COLLECTIONS: readonly CollectionSpec[] = [
  { name: 'bench.raw.accounts', indexes: [{ name: 'byUnit', fields: ['unit', 'account'] }] },
  { name: 'bench.raw.idempotency' },
]

/** The floor commit number `n`. */
export function floorRows(n: number): Write[] {
  const json = (fields: number) => Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, `${n}-${i}-value`]))
  return [
    { kind: 'put', collection: 'bench.raw.accounts', key: `raw:a${n}`, value: { ...json(6), unit: 'phi', account: `raw-a${n}` }, expect: { kind: 'absent' } },
    { kind: 'put', collection: 'bench.raw.accounts', key: `raw:b${n}`, value: { ...json(6), unit: 'phi', account: `raw-b${n}` }, expect: { kind: 'absent' } },
    { kind: 'put', collection: 'value.entries', key: `raw-entry-${n}`, value: { ...json(12), createdAt: '2026-01-01T00:00:00.000Z' }, expect: { kind: 'absent' } },
    { kind: 'put', collection: 'bench.raw.idempotency', key: `raw-key-${n}`, value: json(6), expect: { kind: 'absent' } },
    { kind: 'appendNext', stream: 'bench.raw.log', value: json(3) },
    { kind: 'appendNext', stream: 'bench.raw.actions', value: json(6) },
    { kind: 'appendNext', stream: 'bench.raw.feed', value: json(9) },
  ]
}
