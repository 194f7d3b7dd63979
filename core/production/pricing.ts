/**
 * What a metered run costs, in micro-Φ. A run is quoted before it is generated: the quote is the
 * most it can cost (its prompt's tokens and the largest output it may produce), checked against
 * the caller's balance first, so a caller who cannot pay never costs a generation. The charge is
 * what the generator reports it used, never more than the quote.
 */
import type { ProductionPricingConfig } from '../config/deployment-config.js'
import type { TextUsage } from '../../ports/text-generator.js'

export interface ProductionPricing {
  readonly runBasePhiMicro: bigint
  readonly inputTokenPhiMicro: bigint
  readonly outputTokenPhiMicro: bigint
  readonly maxOutputTokens: number
}

/** docs/production.md: 0.001 Φ a run, 1 µΦ an input token, 4 µΦ an output token, 512 output tokens at most. */
export const DEFAULT_PRODUCTION_PRICING: ProductionPricing = { runBasePhiMicro: 1000n, inputTokenPhiMicro: 1n, outputTokenPhiMicro: 4n, maxOutputTokens: 512 }

export function pricingOf(config: ProductionPricingConfig | undefined): ProductionPricing {
  const defaults = DEFAULT_PRODUCTION_PRICING
  return {
    runBasePhiMicro: config?.runBasePhiMicro !== undefined ? BigInt(config.runBasePhiMicro) : defaults.runBasePhiMicro,
    inputTokenPhiMicro: config?.inputTokenPhiMicro !== undefined ? BigInt(config.inputTokenPhiMicro) : defaults.inputTokenPhiMicro,
    outputTokenPhiMicro: config?.outputTokenPhiMicro !== undefined ? BigInt(config.outputTokenPhiMicro) : defaults.outputTokenPhiMicro,
    maxOutputTokens: config?.maxOutputTokens || defaults.maxOutputTokens,
  }
}

/** A generous token count for text not yet sent: one token per three UTF-16 units, at least one. */
export const estimatedTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 3))

/** The most a run over `inputText` may cost. */
export function quoteOf(pricing: ProductionPricing, inputText: string): bigint {
  return pricing.runBasePhiMicro + BigInt(estimatedTokens(inputText)) * pricing.inputTokenPhiMicro + BigInt(pricing.maxOutputTokens) * pricing.outputTokenPhiMicro
}

/** What a finished run is charged: its reported usage, capped at its quote. */
export function chargeOf(pricing: ProductionPricing, usage: TextUsage, quote: bigint): bigint {
  const used = pricing.runBasePhiMicro + BigInt(usage.inputTokens) * pricing.inputTokenPhiMicro + BigInt(usage.outputTokens) * pricing.outputTokenPhiMicro
  return used < quote ? used : quote
}
