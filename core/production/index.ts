/**
 * Production: metered Creator runs and Twin messages (docs/production.md). Webhook management, the
 * other Production operations, lives in core/webhooks.
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { messageOwnedTwin } from './message-owned-twin.js'
import { runCreator } from './run-creator.js'
import { productionRunsCollection } from './runs.js'

/** @example const useCases = { ...productionUseCases } */
export const productionUseCases = { runCreator, messageOwnedTwin } as const satisfies UseCaseRegistry
export const productionCollections: readonly CollectionSpec[] = [productionRunsCollection]

export { runMetered, MAX_INPUT_LENGTH, type MeteredRunReply } from './metered-run.js'
export { DEFAULT_PRODUCTION_PRICING, pricingOf, quoteOf, chargeOf, type ProductionPricing } from './pricing.js'
export { PRODUCTION_RUNS, type RunRecord } from './runs.js'
