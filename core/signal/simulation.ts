/**
 * The bounded odds simulation: `rounds` battles of the published reference match-up from one seeded
 * stream, counted exactly. The same seed and rounds give the same odds and `outputHash` everywhere.
 */
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { battle, RULES, SOURCE_DIGEST, statsOf, type Outcome } from './engine.js'
import { seededRng } from './prng.js'

/** Most battles one request may run (the contract's `rounds` bound). */
export const SIMULATION_BOUND = 10_000
/** Battles run when `rounds` is not given. */
export const DEFAULT_ROUNDS = 1_000

/** The reference match-up: two cards whose claim hashes anyone can recompute. */
export const REFERENCE_CARDS = { a: sha256Hex('signal-circuit/reference/a'), b: sha256Hex('signal-circuit/reference/b') } as const

export interface Simulation {
  readonly seed: string
  readonly rounds: number
  readonly bound: number
  readonly counts: Readonly<Record<Outcome, number>>
  /** Outcome → frequency as a decimal string with four places (exact integer rounding, half up). */
  readonly odds: Readonly<Record<Outcome, string>>
  readonly outputHash: string
  readonly sourceDigest: string
}

/** @example simulateOdds('replay-me', 1000).outputHash */
export function simulateOdds(seed: string, rounds: number): Simulation {
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > SIMULATION_BOUND) throw new RangeError(`rounds must be an integer from 1 to ${SIMULATION_BOUND}`)
  const rng = seededRng(`simulation:${seed}`)
  const a = statsOf(REFERENCE_CARDS.a)
  const b = statsOf(REFERENCE_CARDS.b)
  const counts: Record<Outcome, number> = { a: 0, b: 0, draw: 0 }
  for (let i = 0; i < rounds; i++) counts[battle(a, b, rng).winner]++
  const odds = { a: frequency(counts.a, rounds), b: frequency(counts.b, rounds), draw: frequency(counts.draw, rounds) }
  const outputHash = sha256OfJson({ engine: RULES.version, seed, rounds, counts })
  return { seed, rounds, bound: SIMULATION_BOUND, counts, odds, outputHash, sourceDigest: SOURCE_DIGEST }
}

function frequency(count: number, total: number): string {
  const tenThousandths = Math.floor((count * 10_000 * 2 + total) / (2 * total))
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`
}
