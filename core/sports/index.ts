/**
 * Sports: the sports/1 rules for sealed sports cards (manifest well-formedness, the claim hash that
 * binds a card) and their live conformance (report, badge, history, rollups) through the same
 * routes the Signal Circuit's conformance uses.
 */
import { conformanceBadge, conformanceHistory, conformanceReport, conformanceRollups } from '../signal/conformance-routes.js'
import type { UseCaseFor, UseCaseRegistry } from '../usecases/use-case.js'
import { sportsSuite } from './conformance-suite.js'

const getSportsConformance: UseCaseFor<'getSportsConformance'> = (_request, deps) => conformanceReport(sportsSuite, deps)
const getSportsConformanceBadge: UseCaseFor<'getSportsConformanceBadge'> = (_request, deps) => conformanceBadge(sportsSuite, deps)
const getSportsConformanceHistory: UseCaseFor<'getSportsConformanceHistory'> = (_request, deps) => conformanceHistory(sportsSuite, deps)
const getSportsConformanceRollups: UseCaseFor<'getSportsConformanceRollups'> = (_request, deps) => conformanceRollups(sportsSuite, deps)

/** @example const useCases = { ...sportsUseCases } */
export const sportsUseCases = { getSportsConformance, getSportsConformanceBadge, getSportsConformanceHistory, getSportsConformanceRollups } as const satisfies UseCaseRegistry

export { sportsSuite } from './conformance-suite.js'
export { claimHashOf, violationsOf, SPORTS_RULES, SPORTS_SOURCE_DIGEST, type SportsClaim, type JudgedManifest, type Violation } from './rules.js'
export { SPORTS_VECTORS } from './vectors.js'
