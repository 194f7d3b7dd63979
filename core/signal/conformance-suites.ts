/**
 * The published conformance vectors of the Signal Circuit (vectors.ts) and the
 * checks that run them live against the engine. A report anchors itself to the engine's revision
 * and source digest; a vector that no longer holds makes the report `fail`, never a crash.
 */
import { RULES, SOURCE_DIGEST, replayBattle, statsOf } from './engine.js'
import { simulateOdds } from './simulation.js'
import { SIGNAL_CIRCUIT_VECTORS } from './vectors.js'

export interface ConformanceCheck {
  readonly id: string
  readonly title: string
  readonly passed: boolean
  readonly detail?: string
}

export interface ConformanceSuite {
  readonly name: 'signal-circuit' | 'sports'
  readonly label: string
  readonly revision: string
  readonly sourceDigest: string
  run(): readonly ConformanceCheck[]
}

const SIGNAL_VECTORS = SIGNAL_CIRCUIT_VECTORS

/** Equal as JSON (vectors are plain data). */
export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Runs a check, turning a throw into a failed check with its reason. */
export function conformanceCheck(id: string, title: string, holds: () => { passed: boolean; detail?: string }): ConformanceCheck {
  try {
    return { id, title, ...holds() }
  } catch (error) {
    return { id, title, passed: false, detail: `threw: ${error instanceof Error ? error.message : String(error)}` }
  }
}

export const signalCircuitSuite: ConformanceSuite = {
  name: 'signal-circuit',
  label: 'signal circuit',
  revision: RULES.version,
  sourceDigest: SOURCE_DIGEST,
  run: () => [
    ...SIGNAL_VECTORS.stats.map((v) => conformanceCheck(v.id, `card stats from claim hash ${v.claimHash.slice(0, 8)}…`, () => {
      const actual = statsOf(v.claimHash)
      return sameJson(actual, v.expected) ? { passed: true } : { passed: false, detail: `expected ${JSON.stringify(v.expected)}, got ${JSON.stringify(actual)}` }
    })),
    ...SIGNAL_VECTORS.battles.map((v) => conformanceCheck(v.id, `battle replay with seed ${v.seed}`, () => {
      const actual = replayBattle(v.claimHashA, v.claimHashB, v.seed)
      return sameJson(actual, v.expected) ? { passed: true } : { passed: false, detail: `expected ${JSON.stringify(v.expected)}, got ${JSON.stringify(actual)}` }
    })),
    ...SIGNAL_VECTORS.simulations.map((v) => conformanceCheck(v.id, `odds simulation replay: seed ${v.seed}, ${v.rounds} rounds`, () => {
      const actual = simulateOdds(v.seed, v.rounds).outputHash
      return actual === v.expectedOutputHash ? { passed: true } : { passed: false, detail: `outputHash ${actual}, expected ${v.expectedOutputHash}` }
    })),
  ],
}
