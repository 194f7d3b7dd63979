/**
 * Connect Twin: the market mandate, intents checked against it at creation and again at approval,
 * public promotion approval, and the Twin mind as a signed PNG artifact (docs/twin.md).
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { approveTwinMarketIntent, createTwinMarketIntent, listTwinMarketIntents } from './intents.js'
import { getTwinMarketMandate, saveTwinMarketMandate } from './mandate.js'
import { twinMarketCollections } from './market-records.js'
import { approveTwinPromotion, getTwinApproval } from './promotion-approval.js'
import { twinApprovalCollection } from './approval-records.js'
import { exportTwinMind, importTwinMind, inspectTwinMind } from './mind-operations.js'

/** @example const useCases = { ...twinUseCases } */
export const twinUseCases = {
  getTwinMarketMandate, saveTwinMarketMandate, listTwinMarketIntents, createTwinMarketIntent, approveTwinMarketIntent, getTwinApproval, approveTwinPromotion,
  exportTwinMind, inspectTwinMind, importTwinMind,
} as const satisfies UseCaseRegistry

export const twinCollections: readonly CollectionSpec[] = [...twinMarketCollections, twinApprovalCollection]
export { checkIntent, type RiskVerdict } from './risk-checks.js'
