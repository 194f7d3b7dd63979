/**
 * Fault injection at every Store call of every runtime use case that writes, before the call
 * reaches the store and after it did its work but the reply was lost: after each fault nothing is
 * half written (each scenario's invariant ties the records one commit writes together), and the
 * same request made again afterwards either completes or is refused for the first attempt's
 * success — never half of both.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import type { Principal } from '../auth/principal.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { GRANTS } from '../oidc/collections.js'
import type { Store } from '../../ports/store.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import { runtimeUseCases } from './index.js'
import { RUNTIME_CHALLENGES } from './runtime-collections.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']

let runtime: RuntimeTestWorld
let ada: IdentityHolder
beforeAll(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
})

const bearer = (scopes: readonly string[], subject = 'usr_ada'): Principal => ({ kind: 'bearer', subject, clientId: APP, scopes, tokenId: 'tok', businessTier: false })

interface Scenario {
  readonly name: string
  /** A fresh request (its own nonce, handle…), prepared on the clean store. */
  prepare(): Promise<{ readonly body: unknown; readonly principal: Principal }>
  readonly operation: keyof typeof runtimeUseCases
  /** What must hold after any fault: records one commit writes exist together or not at all. */
  invariant(store: Store): Promise<void>
}

const all = async (store: Store, collection: string, index: string) => (await store.query(collection, { index, limit: 1000 })).items
const ledgerActions = async (store: Store, action: string) =>
  (await store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items.filter((entry) => (entry.value as { action?: string }).action === action).length

const scenarios: Scenario[] = [
  {
    name: 'proof-authority exchange',
    operation: 'exchangeProofAuthority',
    prepare: async () => ({
      body: { artifact: ada.identityArtifact, challenge: ada.challenge({ audience: APP, scopes: ['cairn:runtime.read'] }), applicationId: APP, scopes: ['cairn:runtime.read'] },
      principal: { kind: 'anonymous' },
    }),
    invariant: async (store) => {
      const grants = (await all(store, GRANTS, 'byUserClient')).filter((doc) => (doc.value as { clientId: string }).clientId === APP)
      const nonces = (await all(store, RUNTIME_CHALLENGES, 'byExpiresAt')).filter((doc) => (doc.value as { operation: string }).operation === 'exchangeProofAuthority')
      expect(grants.length).toBe(nonces.length)
      expect(await ledgerActions(store, 'proof_authority_exchanged')).toBe(grants.length)
    },
  },
]

const run = (scenario: Scenario, request: { body: unknown; principal: Principal }, deps: CoreDeps) =>
  (runtimeUseCases[scenario.operation] as unknown as UseCase)({ params: {}, query: {}, body: request.body, principal: request.principal }, deps)

describe('runtime use cases under a Store fault at every call', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: all or nothing, and a retry completes or is refused for the first attempt`, async () => {
      const counter = withFaults(runtime.deps.store, [])
      const clean = await run(scenario, await scenario.prepare(), { ...runtime.deps, store: counter })
      expect(E.isRight(clean)).toBe(true)
      let faults = 0
      for (const method of METHODS) {
        for (let call = 1; call <= counter.callsOf(method); call++) {
          for (const when of ['before', 'after'] as const) {
            const request = await scenario.prepare()
            const faulty = withFaults(runtime.deps.store, [{ method, call, when }])
            const attempt = await run(scenario, request, { ...runtime.deps, store: faulty }).catch((error: unknown) => error)
            if (attempt instanceof Error) expect(attempt).toBeInstanceOf(InjectedFaultError)
            faults += 1
            await scenario.invariant(runtime.deps.store)
            const retry = await run(scenario, request, runtime.deps)
            if (E.isLeft(retry)) expect(retry.left._tag).toMatch(/Unauthenticated|Conflict|NotFound/)
            await scenario.invariant(runtime.deps.store)
          }
        }
      }
      expect(faults).toBeGreaterThan(4)
    })
  }
})
