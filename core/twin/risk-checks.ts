/**
 * The mandate's risk checks, pure: the same checks run when an intent is created and again when it
 * is approved, against the mandate and the day's approved total at that moment — approval never
 * bypasses them. The first failing check names the reason.
 */
import type { IntentRecord, Mandate } from './market-records.js'

export type RiskVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string }

const cents = (text: string | undefined): bigint | undefined => (text === undefined ? undefined : BigInt(text))

/** Share of the daily limit one order may take at `low` risk: a quarter. */
const LOW_RISK_DAILY_SHARE = 4n

export function checkIntent(mandate: Mandate | undefined, intent: Pick<IntentRecord, 'marketId' | 'amountUsdCents' | 'limitPrice'>, approvedToday: bigint): RiskVerdict {
  if (!mandate) return { ok: false, reason: 'No market mandate is saved; the Twin may not trade' }
  if (!mandate.enabled) return { ok: false, reason: 'The market mandate is disabled' }
  if (mandate.allowedMarketIds.length > 0 && !mandate.allowedMarketIds.includes(intent.marketId)) return { ok: false, reason: `Market ${intent.marketId} is not in the mandate's allowed markets` }
  const amount = cents(intent.amountUsdCents)
  const maxOrder = cents(mandate.maxOrderUsdCents)
  const daily = cents(mandate.dailyLimitUsdCents)
  if ((maxOrder !== undefined || daily !== undefined) && amount === undefined) return { ok: false, reason: 'The mandate sets limits, so the intent must state amountUsdCents' }
  if (amount !== undefined && maxOrder !== undefined && amount > maxOrder) return { ok: false, reason: `The amount ${amount} exceeds the mandate's maximum order of ${maxOrder} cents` }
  if (amount !== undefined && daily !== undefined && approvedToday + amount > daily) return { ok: false, reason: `Approving it would bring today's approved total to ${approvedToday + amount} cents, over the daily limit of ${daily}` }
  if (mandate.riskLevel !== 'high' && intent.limitPrice === undefined) return { ok: false, reason: `At ${mandate.riskLevel} risk every intent needs a limitPrice` }
  if (mandate.riskLevel === 'low' && amount !== undefined && daily !== undefined && amount * LOW_RISK_DAILY_SHARE > daily) return { ok: false, reason: 'At low risk one order may take at most a quarter of the daily limit' }
  return { ok: true }
}
