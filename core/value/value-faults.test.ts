/**
 * Fault injection at every Store call of every value use case, before the call reaches the store
 * and after it did its work but the reply was lost: after each fault value is conserved, nothing is
 * half written (every balance equals the sum of the ledger entries that touched it, every entry has
 * its feed event, action ledger event, transparency-log leaf and idempotency record), and a retry with the same
 * idempotency key completes exactly once.
 */
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { openValueAuthority } from '../../conformance/support/value-authority.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import type { Store } from '../../ports/store.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import { completeCheckout, issueValue, trialBalance, valueCheckouts, valueNotes, valueUseCases, WALLET_LEDGER_STREAM } from './index.js'
import { VALUE_ENTRIES, type LedgerEntry } from './ledger-entry.js'
import { VALUE_IDEMPOTENCY } from './idempotency.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
const ADA = 'usr_ada'
const BOB = 'usr_bob'

interface Scenario {
  readonly name: string
  /** Prepares state on the clean store (outside the faults). */
  prepare?(deps: CoreDeps): Promise<void>
  /** The operation under test; the same call is the retry. */
  run(deps: CoreDeps): Promise<unknown>
  /** After the retry: the operation's effect is there exactly once. */
  once(store: Store): Promise<void>
  /** Store key of the operation's idempotency record, when it moves value under a key. */
  readonly savedKey?: string
}

const call = (op: keyof typeof valueUseCases, body: unknown, deps: CoreDeps) =>
  (valueUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: valueBearer(ADA) }, deps)
const entries = async (store: Store) => (await store.query(VALUE_ENTRIES, { index: 'byCreatedAt', limit: 1000 })).items.map((d) => d.value as unknown as LedgerEntry)
const entriesOf = async (store: Store, kind: LedgerEntry['kind']) => (await entries(store)).filter((e) => e.kind === kind)
/** The open authority session of the store being run (each run prepares a fresh store, so the latest one). */
let authorityDigest = ''
const intent = (schema: string, extra: Record<string, string>) => ({ intent: { schema, idempotencyKey: 'exec-1', ...extra }, authorityDigest })

const scenarios: readonly Scenario[] = [
  {
    name: 'transfer',
    run: (deps) => call('createTransfer', { recipientUserId: BOB, unit: { currency: 'phi', amount: '300' }, idempotencyKey: 't-1' }, deps),
    once: async (store) => expect((await entriesOf(store, 'transfer')).length).toBe(1),
    savedKey: `transfer:${ADA}:t-1`,
  },
  {
    name: 'reserve',
    prepare: async (deps) => { authorityDigest = await openValueAuthority(deps, valueBearer(ADA)) },
    run: (deps) => call('executeReserve', intent('cairn.value.reserve.v1', { amountPhiMicro: '200' }), deps),
    once: async (store) => expect((await entriesOf(store, 'reserve')).length).toBe(1),
    savedKey: `value-execution:${ADA}:exec-1`,
  },
  {
    name: 'settlement',
    prepare: async (deps) => {
      authorityDigest = await openValueAuthority(deps, valueBearer(ADA))
      await call('executeReserve', { ...intent('cairn.value.reserve.v1', { amountPhiMicro: '200' }), intent: { schema: 'cairn.value.reserve.v1', idempotencyKey: 'prep', amountPhiMicro: '200' } }, deps)
    },
    run: (deps) => call('executeSettlement', intent('cairn.value.settlement.v1', { amountPhiMicro: '150', counterpartySubjectId: BOB }), deps),
    once: async (store) => expect((await entriesOf(store, 'settlement')).length).toBe(1),
    savedKey: `value-execution:${ADA}:exec-1`,
  },
  {
    name: 'issuance',
    run: (deps) => issueValue(deps, { userId: BOB, unit: 'usd', amount: '75', idempotencyKey: 'grant-1' }),
    once: async (store) => expect((await entriesOf(store, 'issuance')).filter((e) => e.idempotencyKey === 'grant-1').length).toBe(1),
    savedKey: 'issuance:operator:grant-1',
  },
  {
    name: 'checkout creation',
    run: (deps) => call('createConnectCheckout', { amountUsd: '5.00', currency: 'usd', idempotencyKey: 'co-1' }, deps),
    once: async (store) => expect((await store.get(VALUE_IDEMPOTENCY, `checkout:connect:${ADA}:co-1`))).toBeDefined(),
  },
  {
    name: 'checkout completion',
    prepare: async (deps) => {
      const created = await call('createConnectCheckout', { amountUsd: '5.00', currency: 'usd', idempotencyKey: 'co-2' }, deps)
      if (E.isLeft(created)) throw new Error('checkout refused')
    },
    run: (deps) => completeSavedCheckout(deps, 'co-2'),
    once: async (store) => expect((await entriesOf(store, 'checkout')).length).toBe(1),
  },
  {
    name: 'checkout completion buying Φ (two legs in one entry)',
    prepare: async (deps) => {
      const priced = { ...deps, config: { ...deps.config, deployment: { payments: { phiPerUsd: '100' } } } }
      const created = await call('createConnectCheckout', { amountUsd: '5.00', currency: 'usd', idempotencyKey: 'co-3' }, priced)
      if (E.isLeft(created)) throw new Error('checkout refused')
    },
    run: (deps) => completeSavedCheckout(deps, 'co-3'),
    once: async (store) => expect((await entriesOf(store, 'checkout')).map((e) => [e.amount, e.exchange?.amount])).toEqual([['500000000', '500']]),
  },
  {
    name: 'note mint',
    run: (deps) => call('mintWalletNote', { unit: 'phi', amount: '120', idempotencyKey: 'n-1' }, deps),
    once: async (store) => expect((await entriesOf(store, 'note_mint')).length).toBe(1),
    savedKey: `note-mint:${ADA}:n-1`,
  },
  {
    name: 'note claim',
    prepare: async (deps) => {
      const minted = await call('mintWalletNote', { unit: 'phi', amount: '120', idempotencyKey: 'n-2' }, deps)
      if (E.isLeft(minted) || minted.right.kind !== 'json') throw new Error('mint refused')
      const noteId = (minted.right.body as { note: { noteId: string } }).note.noteId
      const download = await (valueUseCases.downloadWalletNote as unknown as UseCase)({ params: { noteId }, query: {}, body: undefined, principal: valueBearer(ADA) }, deps)
      if (E.isLeft(download) || download.right.kind !== 'json') throw new Error('download refused')
      noteBytes.set(deps.store, (download.right.body as { exactBytesB64u: string }).exactBytesB64u)
    },
    // The claim is idempotent by the note itself: a retry after a fault either claims or finds it claimed.
    run: async (deps) => {
      const note = [...noteBytes.values()].at(-1)!
      const reply = await (valueUseCases.claimWalletNote as unknown as UseCase)({ params: {}, query: {}, body: { note }, principal: valueBearer(BOB) }, deps)
      if (E.isLeft(reply) && reply.left._tag !== 'Conflict') throw new Error(reply.left.message)
      return reply
    },
    once: async (store) => expect((await entriesOf(store, 'note_claim')).length).toBe(1),
  },
]
const noteBytes = new Map<Store, string>()

/** Completes, as the test processor reports it, the checkout ada created with idempotency key `key`. */
async function completeSavedCheckout(deps: CoreDeps, key: string) {
  const saved = await deps.store.get<{ reply: { sessionId: string } }>(VALUE_IDEMPOTENCY, `checkout:connect:${ADA}:${key}`)
  const record = (await valueCheckouts.get(deps.store, saved!.value.reply.sessionId))!.value
  const processor = deps.payments as TestPaymentProcessor
  return completeCheckout(deps, processor, processor.completion(record))
}

async function freshDeps(): Promise<{ deps: CoreDeps; store: MemoryStore }> {
  const store = new MemoryStore()
  const base = memoryDeps({ store })
  const deps = { ...base, payments: new TestPaymentProcessor(base.clock, base.config.baseUrl) }
  await store.declare(collections)
  await createValueUser(store, 'ada')
  await createValueUser(store, 'bob')
  const seeded = await issueValue(deps, { userId: ADA, unit: 'phi', amount: '1000', idempotencyKey: 'seed' })
  if (E.isLeft(seeded)) throw new Error('seed failed')
  return { deps, store }
}

/** Whole: balances equal their entries, each entry has its idempotency record, its action event, and (when published) its feed event. */
async function expectWhole(store: Store, savedKey: string | undefined): Promise<void> {
  const trial = await trialBalance({ store })
  expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
  expect(trial.negative).toEqual([])
  const all = await entries(store)
  const expected = new Map<string, bigint>()
  for (const entry of all) {
    for (const leg of [entry, ...(entry.exchange ? [entry.exchange] : [])]) {
      expected.set(`${leg.unit}:${leg.debit}`, (expected.get(`${leg.unit}:${leg.debit}`) ?? 0n) - BigInt(leg.amount))
      expected.set(`${leg.unit}:${leg.credit}`, (expected.get(`${leg.unit}:${leg.credit}`) ?? 0n) + BigInt(leg.amount))
    }
  }
  expect(new Map(trial.accounts.map((a) => [`${a.unit}:${a.account}`, BigInt(a.balance)]))).toEqual(expected)
  const actions = (await store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items.filter((e) => (e.value as { kind: string }).kind === 'wallet')
  expect(actions.length).toBe(all.length)
  // One log leaf per movement: the public event's for published kinds, the entry's otherwise.
  const leaves = (await store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items.map((e) => e.value as { kind: string; entryId?: string; eventId?: string })
  const published = new Set(['transfer', 'note_mint', 'note_claim', 'issuance', 'checkout', 'lawful_settlement'])
  expect(leaves.filter((leaf) => leaf.kind === 'cairn.value_entry').map((leaf) => leaf.entryId).sort()).toEqual(all.filter((e) => !published.has(e.kind)).map((e) => e.entryId).sort())
  expect(leaves.filter((leaf) => leaf.kind === 'cairn.wallet_ledger_event').map((leaf) => leaf.eventId).sort()).toEqual(all.filter((e) => published.has(e.kind)).map((e) => `wle_${e.entryId.slice(4)}`).sort())
  const feed = (await store.readStream(WALLET_LEDGER_STREAM, { limit: 1000 })).items
  expect(feed.length).toBe(all.filter((e) => published.has(e.kind)).length)
  // Every note is backed by its mint entry, and is claimed iff its claim entry exists.
  for (const doc of (await store.query(valueNotes.name, { index: 'byOwner', limit: 1000 })).items) {
    const note = valueNotes.decode(doc)
    expect(all.some((e) => e.entryId === note.mintEntryId && e.kind === 'note_mint')).toBe(true)
    expect(all.filter((e) => e.kind === 'note_claim').length > 0).toBe(note.status === 'claimed')
  }
  if (savedKey !== undefined) {
    // The idempotency record and the entry it answers exist together or not at all.
    const saved = await store.get<{ entryId: string | null }>(VALUE_IDEMPOTENCY, savedKey)
    const key = savedKey.split(':').at(-1)
    const keyed = all.filter((entry) => entry.idempotencyKey === key)
    expect(keyed.map((entry) => entry.entryId)).toEqual(saved ? [saved.value.entryId] : [])
  }
}

describe('value use cases under a fault at every Store call', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      // How many calls of each method a clean run makes.
      const clean = await freshDeps()
      await scenario.prepare?.(clean.deps)
      const counting = withFaults(clean.store, [])
      await scenario.run({ ...clean.deps, store: counting })
      await scenario.once(clean.store)
      let faults = 0
      for (const method of METHODS) {
        for (let callIndex = 1; callIndex <= counting.callsOf(method); callIndex++) {
          for (const when of ['before', 'after'] as const) {
            const { deps, store } = await freshDeps()
            await scenario.prepare?.(deps)
            const faulty = withFaults(store, [{ method, call: callIndex, when }])
            const outcome = await scenario.run({ ...deps, store: faulty }).then(() => 'answered', (error: unknown) => {
              if (!(error instanceof InjectedFaultError)) throw error
              return 'failed'
            })
            faults += outcome === 'failed' ? 1 : 0
            await expectWhole(store, scenario.savedKey)
            await scenario.run(deps) // the retry, same key, healthy store
            await expectWhole(store, scenario.savedKey)
            await scenario.once(store)
          }
        }
      }
      expect(faults).toBeGreaterThan(0)
    })
  }
})
