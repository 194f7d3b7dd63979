/**
 * Connect Twin, built so far: the market mandate, intents checked against it at creation and again
 * at approval, and public promotion approval (docs/twin.md). The Twin mind export and import are
 * not built yet (honest 501s).
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { approveTwinMarketIntent, createTwinMarketIntent, listTwinMarketIntents } from './intents.js'
import { getTwinMarketMandate, saveTwinMarketMandate } from './mandate.js'
import { twinMarketCollections } from './market-records.js'
import { approveTwinPromotion, getTwinApproval, twinApprovalCollection } from './promotion-approval.js'

/** @example const useCases = { ...twinUseCases } */
export const twinUseCases = {
  getTwinMarketMandate, saveTwinMarketMandate, listTwinMarketIntents, createTwinMarketIntent, approveTwinMarketIntent, getTwinApproval, approveTwinPromotion,
} as const satisfies UseCaseRegistry

export const twinCollections: readonly CollectionSpec[] = [...twinMarketCollections, twinApprovalCollection]
export { checkIntent, type RiskVerdict } from './risk-checks.js'
