/**
 * Signal And Sports, built so far: the deterministic Signal Circuit engine, its published
 * conformance vectors run live (report, badge, history, rollups) and the bounded odds simulation.
 */
import * as E from 'fp-ts/lib/Either.js'
import { json, type UseCaseFor, type UseCaseRegistry } from '../usecases/use-case.js'
import { conformanceBadge, conformanceHistory, conformanceReport, conformanceRollups } from './conformance-routes.js'
import { signalCircuitSuite } from './conformance-suites.js'
import { DEFAULT_ROUNDS, simulateOdds } from './simulation.js'

const getSignalCircuitConformance: UseCaseFor<'getSignalCircuitConformance'> = (_request, deps) => conformanceReport(signalCircuitSuite, deps)
const getSignalCircuitConformanceBadge: UseCaseFor<'getSignalCircuitConformanceBadge'> = (_request, deps) => conformanceBadge(signalCircuitSuite, deps)
const getSignalCircuitConformanceHistory: UseCaseFor<'getSignalCircuitConformanceHistory'> = (_request, deps) => conformanceHistory(signalCircuitSuite, deps)
const getSignalCircuitConformanceRollups: UseCaseFor<'getSignalCircuitConformanceRollups'> = (_request, deps) => conformanceRollups(signalCircuitSuite, deps)

/** `GET /api/signal-circuit/conformance/simulation?seed=…&rounds=…`: a random seed when none is given, so every answer can be replayed. */
const simulateSignalCircuitOdds: UseCaseFor<'simulateSignalCircuitOdds'> = async (request, deps) => {
  const seed = request.query.seed ?? Buffer.from(deps.entropy.bytes(12)).toString('base64url')
  const simulation = simulateOdds(seed, request.query.rounds ?? DEFAULT_ROUNDS)
  return E.right(json({ ok: true as const, ...simulation }, { 'cache-control': request.query.seed ? 'public, max-age=86400' : 'no-store' }))
}

/** @example const useCases = { ...signalUseCases } */
export const signalUseCases = {
  getSignalCircuitConformance, getSignalCircuitConformanceBadge, getSignalCircuitConformanceHistory, getSignalCircuitConformanceRollups, simulateSignalCircuitOdds,
} as const satisfies UseCaseRegistry

export { conformanceCollections } from './conformance-history.js'
export { RULES, SOURCE_DIGEST, statsOf, battle, replayBattle, type CardStats, type BattleResult } from './engine.js'
export { simulateOdds, SIMULATION_BOUND, REFERENCE_CARDS } from './simulation.js'
