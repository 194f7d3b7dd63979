/**
 * What a payment buys: the deployment publishes a Φ price per US dollar
 * (`"payments": { "phiPerUsd": "100" }`, docs/value.md). The rate has at most four decimals, so
 * every cent buys a whole number of micro-Φ (1 Φ = 10^6 µΦ, 1 $ = 100 ¢: µΦ per cent =
 * phiPerUsd × 10^4) and a checkout of C cents credits exactly C × that, with no rounding anywhere.
 */
import { explain } from '../contract/rule-words.js'
import { patternString } from '../contract/primitives.js'

/** A positive decimal with at most four decimals, written as a string: `"100"`, `"2.5"`, `"0.0001"`. */
export const PhiPerUsd = explain(
  patternString('PhiPerUsd', /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,4})?$/, { description: 'Φ one US dollar buys, at most four decimals' }, (text) => /[1-9]/.test(text)),
  'a positive number of Φ per US dollar written as a string with at most four decimals, such as "100"',
)

/** Micro-Φ one cent buys at `phiPerUsd`: "100" → 1 000 000n. */
export function phiMicroPerCent(phiPerUsd: string): bigint {
  const [whole, fraction = ''] = phiPerUsd.split('.')
  return BigInt(whole!) * 10_000n + BigInt(fraction.padEnd(4, '0'))
}

/** Micro-Φ a payment of `cents` buys at `phiPerUsd`, exactly. */
export function phiMicroForCents(cents: bigint, phiPerUsd: string): bigint {
  return cents * phiMicroPerCent(phiPerUsd)
}

/** Micro-Φ as Φ for people: 100000000n → "100", 2500000n → "2.5". */
export function formatPhi(phiMicro: bigint): string {
  const whole = phiMicro / 1000000n
  const fraction = (phiMicro % 1000000n).toString().padStart(6, '0').replace(/0+$/, '')
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`
}
