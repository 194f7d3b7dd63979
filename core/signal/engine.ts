/**
 * The Signal Circuit rules, version `signal-circuit/1`: a card's stats follow from its claim hash,
 * and a battle between two cards is an exchange of strikes decided by the seeded PRNG, so anyone
 * holding the two claim hashes and the seed replays the same battle. Integers only.
 */
import { sha256OfJson } from '../digest/sha256.js'
import { seededRng, type Rng } from './prng.js'

/** Every number the rules use: their digest is the engine's `sourceDigest`. */
export const RULES = {
  version: 'signal-circuit/1',
  power: { base: 4, spread: 7 },
  guard: { base: 2, spread: 5 },
  tempo: { base: 1, spread: 6 },
  charge: { base: 20, spread: 11 },
  die: 6,
  maxExchanges: 12,
  minimumHit: 1,
} as const

/** SHA-256 of the canonical rules: changes exactly when an outcome could change. */
export const SOURCE_DIGEST = sha256OfJson(RULES)

export interface CardStats {
  readonly power: number
  readonly guard: number
  readonly tempo: number
  readonly charge: number
}

export type Side = 'a' | 'b'
export type Outcome = Side | 'draw'

export interface BattleResult {
  readonly winner: Outcome
  readonly exchanges: number
  readonly chargeLeft: { readonly a: number; readonly b: number }
}

/** A card's stats from its claim hash (64 hex characters). @example statsOf('00'.repeat(32)) // { power: 4, … } */
export function statsOf(claimHash: string): CardStats {
  if (!/^[0-9a-f]{64}$/.test(claimHash)) throw new TypeError('A claim hash is 64 lowercase hex characters')
  const byte = (i: number) => parseInt(claimHash.slice(i * 2, i * 2 + 2), 16)
  const stat = (i: number, rule: { base: number; spread: number }) => rule.base + (byte(i) % rule.spread)
  return { power: stat(0, RULES.power), guard: stat(1, RULES.guard), tempo: stat(2, RULES.tempo), charge: stat(3, RULES.charge) }
}

/** One battle between `a` and `b`, drawing from `rng`. */
export function battle(a: CardStats, b: CardStats, rng: Rng): BattleResult {
  const charge = { a: a.charge, b: b.charge }
  const cards = { a, b }
  const roll = () => rng.below(RULES.die) + 1
  const strike = (attacker: Side): boolean => {
    const defender: Side = attacker === 'a' ? 'b' : 'a'
    const hit = Math.max(RULES.minimumHit, cards[attacker].power + roll() - cards[defender].guard)
    charge[defender] -= hit
    return charge[defender] <= 0
  }
  for (let exchange = 1; exchange <= RULES.maxExchanges; exchange++) {
    const initiativeA = a.tempo + roll()
    const initiativeB = b.tempo + roll()
    const first: Side = initiativeA > initiativeB ? 'a' : initiativeB > initiativeA ? 'b' : rng.below(2) === 0 ? 'a' : 'b'
    const second: Side = first === 'a' ? 'b' : 'a'
    if (strike(first)) return { winner: first, exchanges: exchange, chargeLeft: { ...charge } }
    if (strike(second)) return { winner: second, exchanges: exchange, chargeLeft: { ...charge } }
  }
  const winner: Outcome = charge.a > charge.b ? 'a' : charge.b > charge.a ? 'b' : 'draw'
  return { winner, exchanges: RULES.maxExchanges, chargeLeft: { ...charge } }
}

/** A battle replayed from the two claim hashes and the seed both sides committed to. */
export function replayBattle(claimHashA: string, claimHashB: string, seed: string): BattleResult {
  return battle(statsOf(claimHashA), statsOf(claimHashB), seededRng(`${claimHashA}:${claimHashB}:${seed}`))
}
