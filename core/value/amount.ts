/**
 * Exact amounts. Value is held as bigint in the smallest unit of its currency (micro-Φ, US cents)
 * and travels as a decimal string; no floating point touches it anywhere
 * (`no-floating-point.test.ts` scans these modules).
 */
import * as t from 'io-ts'

/** The units value is kept in: `phi` counts micro-Φ, `usd` counts US cents. */
export const UnitCodec = t.keyof({ phi: null, usd: null })
export type Unit = t.TypeOf<typeof UnitCodec>
export const UNITS: readonly Unit[] = ['phi', 'usd']

/** The largest amount one movement may carry: 10^15 micro-Φ (10^9 Φ) or 10^13 cents. */
export const MAX_MOVEMENT: Readonly<Record<Unit, bigint>> = { phi: 10n ** 15n, usd: 10n ** 13n }

/** The largest checkout: $999,999.99, the ceiling most card processors (Stripe's included) accept. */
export const MAX_CHECKOUT_CENTS = 99_999_999n

const MINOR_UNITS = /^(0|[1-9][0-9]{0,30})$/
const DOLLARS = /^(0|[1-9][0-9]{0,12})(?:\.([0-9]{1,2}))?$/

/**
 * A positive whole amount in the smallest unit, at most `MAX_MOVEMENT[unit]`; a sentence otherwise.
 *
 * @example parseMinorUnits('1250', 'usd') // { ok: true, amount: 1250n }
 */
export function parseMinorUnits(text: string, unit: Unit): { ok: true; amount: bigint } | { ok: false; error: string } {
  if (!MINOR_UNITS.test(text)) return { ok: false, error: `amount must be a whole number of ${unitName(unit)} written as a decimal string, without sign, fraction or leading zeros` }
  return bounded(BigInt(text), MAX_MOVEMENT[unit], unit)
}

/**
 * US dollars with at most two decimals (`12`, `12.5`, `12.50`) as cents, positive and at most
 * $999,999.99.
 *
 * @example parseUsdDollars('12.50') // { ok: true, amount: 1250n }
 */
export function parseUsdDollars(text: string): { ok: true; amount: bigint } | { ok: false; error: string } {
  const match = DOLLARS.exec(text)
  if (!match) return { ok: false, error: 'amountUsd must be US dollars with at most two decimals, e.g. "12.50"' }
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'))
  return bounded(cents, MAX_CHECKOUT_CENTS, 'usd')
}

const PHI = /^(0|[1-9][0-9]{0,9})(?:\.([0-9]{1,6}))?$/

/**
 * Φ as people write it, with at most six decimals (`100`, `2.5`), as micro-Φ, positive and at
 * most `MAX_MOVEMENT.phi`.
 *
 * @example parsePhi('2.5') // { ok: true, amount: 2500000n }
 */
export function parsePhi(text: string): { ok: true; amount: bigint } | { ok: false; error: string } {
  const match = PHI.exec(text)
  if (!match) return { ok: false, error: 'Φ must be a number with at most six decimals, e.g. "100" or "2.5"' }
  return bounded(BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0')), MAX_MOVEMENT.phi, 'phi')
}

/** Cents as dollars with two decimals: 1250n → '12.50'. */
export function formatUsdDollars(cents: bigint): string {
  const whole = cents / 100n
  const fraction = (cents % 100n).toString().padStart(2, '0')
  return `${whole}.${fraction}`
}

/** A stored decimal string back to bigint (stored values are written only by `toDecimal`). */
export function fromDecimal(text: string): bigint {
  return BigInt(text)
}

export function toDecimal(amount: bigint): string {
  return amount.toString()
}

export function unitName(unit: Unit): string {
  return unit === 'phi' ? 'micro-Φ' : 'US cents'
}

function bounded(amount: bigint, max: bigint, unit: Unit): { ok: true; amount: bigint } | { ok: false; error: string } {
  if (amount <= 0n) return { ok: false, error: 'amount must be positive' }
  if (amount > max) return { ok: false, error: `amount must be at most ${max} ${unitName(unit)}` }
  return { ok: true, amount }
}
