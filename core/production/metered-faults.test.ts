/**
 * Fault injection at every Store call of a metered run, before the call reaches the store and
 * after it did its work but the reply was lost: nothing is charged without a recorded run and no
 * run is recorded without its charge, its idempotency record and its webhook delivery; a retry
 * with the same requestId completes exactly once.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { createValueUser } from '../../conformance/support/value-users.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import type { Store } from '../../ports/store.js'
import type { Principal } from '../auth/principal.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import { issueValue, PRODUCTION_USAGE, trialBalance } from '../value/index.js'
import { valueEntries } from '../value/ledger-entry.js'
import { VALUE_IDEMPOTENCY } from '../value/idempotency.js'
import { webhookDeliveries, webhookEndpoints, type EndpointRecord } from '../webhooks/records.js'
import { productionUseCases } from './index.js'
import { PRODUCTION_RUNS, productionRuns } from './runs.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
const BOSS = 'usr_boss'
const principal: Principal = { kind: 'bearer', subject: BOSS, clientId: 'production-tests', scopes: ['cairn:production'], tokenId: 'tok_boss', businessTier: true }
const BODY = { requestId: 'run-1', quoteExpiresAt: '2026-06-25T01:00:00.000Z', prompt: 'A short line about stones' }

const run = (deps: CoreDeps) => (productionUseCases.runCreator as unknown as UseCase)({ params: {}, query: {}, body: BODY, principal }, deps)

async function freshDeps(): Promise<{ deps: CoreDeps; store: MemoryStore }> {
  const store = new MemoryStore()
  const deps = memoryDeps({ store })
  await store.declare(collections)
  await createValueUser(store, 'boss')
  const endpoint: EndpointRecord = {
    id: 'whe_1', ownerId: BOSS, url: 'https://hooks.example.com/a', eventTypes: ['creator.run.completed'], enabled: true, description: null,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', createdAtMs: 0, updatedAtMs: 0, failingSinceMs: null, disabledReason: null,
  }
  await store.commit([webhookEndpoints.put(endpoint.id, endpoint, { kind: 'absent' })])
  const funded = await issueValue(deps, { userId: BOSS, unit: 'phi', amount: '100000', idempotencyKey: 'fund' })
  if (E.isLeft(funded)) throw new Error('funding failed')
  return { deps, store }
}

/** Whole: value conserved, and a run, its charge, its idempotency record and its delivery exist together or not at all. */
async function expectWhole(store: Store): Promise<void> {
  const trial = await trialBalance({ store })
  expect(trial.sums.phi).toBe(0n)
  const charges = (await store.query(valueEntries.name, { index: 'byCreatedAt', limit: 100 })).items
    .map(valueEntries.decode).filter((entry) => entry.kind === 'production_usage')
  const runs = (await store.query(productionRuns.name, { index: 'by_owner', limit: 100 })).items.map(productionRuns.decode)
  const deliveries = (await store.query(webhookDeliveries.name, { index: 'due', limit: 100 })).items.map(webhookDeliveries.decode)
  const saved = await store.get(VALUE_IDEMPOTENCY, `production_creator:${BOSS}:run-1`)
  expect(runs.map((r) => r.entryId)).toEqual(charges.map((c) => c.entryId))
  expect(deliveries.map((d) => (d.event.data as { runId: string }).runId)).toEqual(runs.map((r) => r.runId))
  expect(saved !== undefined).toBe(runs.length === 1)
  const usage = trial.accounts.find((account) => account.account === PRODUCTION_USAGE)
  expect(BigInt(usage?.balance ?? '0')).toBe(charges.reduce((sum, charge) => sum + BigInt(charge.amount), 0n))
}

describe('a metered run under a fault at every Store call', () => {
  it('is charged with its run record and delivery, or not at all, and a retry completes it once', async () => {
    const clean = await freshDeps()
    const counting = withFaults(clean.store, [])
    expect(E.isRight(await run({ ...clean.deps, store: counting }))).toBe(true)
    let faults = 0
    for (const method of METHODS) {
      for (let callIndex = 1; callIndex <= counting.callsOf(method); callIndex++) {
        for (const when of ['before', 'after'] as const) {
          const { deps, store } = await freshDeps()
          const faulty = withFaults(store, [{ method, call: callIndex, when }])
          const outcome = await run({ ...deps, store: faulty }).then(() => 'answered', (error: unknown) => {
            if (!(error instanceof InjectedFaultError)) throw error
            return 'failed'
          })
          faults += outcome === 'failed' ? 1 : 0
          await expectWhole(store)
          expect(E.isRight(await run(deps))).toBe(true) // the retry, same requestId, healthy store
          await expectWhole(store)
          expect((await store.query(PRODUCTION_RUNS, { index: 'by_owner', limit: 10 })).items).toHaveLength(1)
        }
      }
    }
    expect(faults).toBeGreaterThan(0)
  })
})
