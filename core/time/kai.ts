/**
 * Kai-Klok time, the clock the spec's `*KaiPulse` and `*KaiUPulse` fields use. One pulse lasts
 * 3+√5 seconds from genesis 2024-05-10T06:45:41.888Z; a pulse has 10^6 micro-pulses.
 *
 * μpulses = floor((ms − genesis) / 1000 / (3+√5) × 10^6) is computed exactly: since
 * 1/(3+√5) = (3−√5)/4, μpulses = floor(750·d − 250·d·√5) with d = ms − genesis, and
 * 250·d·√5 = √(312500·d²) is irrational for d ≠ 0, so its floor and ceiling come from an integer
 * square root. No floating point, no drift.
 */

/** Genesis of Kai-Klok time, in Unix epoch milliseconds (2024-05-10T06:45:41.888Z). */
export const KAI_GENESIS_MS = 1715323541888

/** Micro-pulses in one pulse. */
export const MICRO_PULSES_PER_PULSE = 1_000_000n

/** A moment in Kai-Klok time. */
export interface KaiMoment {
  /** Whole pulses since genesis (`kaiPulseEternal`). */
  readonly pulse: number
  /** Micro-pulses since genesis. */
  readonly uPulse: number
}

/**
 * Micro-pulses since genesis at Unix time `ms`, exactly.
 *
 * @example kaiMicroPulses(1715323541888) // 0n
 */
export function kaiMicroPulses(ms: number): bigint {
  if (!Number.isSafeInteger(ms)) throw new RangeError('Kai time needs whole epoch milliseconds')
  const d = BigInt(ms - KAI_GENESIS_MS)
  if (d === 0n) return 0n
  const root = integerSquareRoot(312500n * d * d) // floor(250·|d|·√5), never exact for d ≠ 0
  return d > 0n ? 750n * d - (root + 1n) : 750n * d + root
}

/**
 * The Kai moment at Unix time `ms`.
 *
 * @example kaiMomentAt(Date.parse('2026-06-25T00:00:00Z')).pulse
 */
export function kaiMomentAt(ms: number): KaiMoment {
  // A seal asks for the same millisecond twice (its statement and its ledger event), each a BigInt square root.
  if (ms !== last.ms) {
    const uPulse = kaiMicroPulses(ms)
    last = { ms, pulse: Number(floorDiv(uPulse, MICRO_PULSES_PER_PULSE)), uPulse: Number(uPulse) }
  }
  return { pulse: last.pulse, uPulse: last.uPulse }
}

let last = { ms: Number.NaN, pulse: 0, uPulse: 0 }

/** Whole pulses (`kaiPulseEternal`) at Unix time `ms`. */
export function kaiPulseEternalAt(ms: number): number {
  return kaiMomentAt(ms).pulse
}

/**
 * The first epoch millisecond at or after which `uPulse` micro-pulses have passed: the inverse the
 * services need to turn a Kai expiry back into wall time.
 */
export function epochMsAtMicroPulse(uPulse: bigint): number {
  // μ(ms) is non-decreasing; binary search over ms keeps the inverse exact.
  const approx = KAI_GENESIS_MS + Math.floor((Number(uPulse) * (3 + Math.sqrt(5))) / 1000)
  let low = approx - 2
  let high = approx + 2
  while (kaiMicroPulses(low) >= uPulse) low -= 16
  while (kaiMicroPulses(high) < uPulse) high += 16
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if (kaiMicroPulses(mid) >= uPulse) high = mid
    else low = mid
  }
  return high
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q
}

/** floor(√n) for n ≥ 0, by Newton's method on bigints. */
export function integerSquareRoot(n: bigint): bigint {
  if (n < 0n) throw new RangeError('Square root of a negative number')
  if (n < 2n) return n
  let x = BigInt(Math.floor(Math.sqrt(Number(n))))
  // Newton steps from the float estimate until stable, then correct by at most one.
  for (;;) {
    const next = (x + n / x) >> 1n
    if (next === x || next === x + 1n || next === x - 1n) { x = next; break }
    x = next
  }
  while (x * x > n) x -= 1n
  while ((x + 1n) * (x + 1n) <= n) x += 1n
  return x
}
