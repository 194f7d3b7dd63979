/**
 * Runtime domains (`/api/sdk/v1/domains/`): verified replay, additions, checkpoints and private
 * additions, and the core functions that write domains (`createDomain`, `appendDomainAdditions`,
 * `grantDomainAccess`) for staged execution and tests. docs/runtime.md, "Domains".
 */
import type { UseCaseRegistry } from '../../usecases/use-case.js'
import { listPrivateDomainAdditions } from './private-additions.js'
import { checkpointDomain, listDomainAdditions, replayDomain } from './replay.js'

/** @example const useCases = { ...domainUseCases } */
export const domainUseCases = { replayDomain, listDomainAdditions, checkpointDomain, listPrivateDomainAdditions } as const satisfies UseCaseRegistry

export { appendDomainAdditions, createDomain, planDomainAppend, AT_CURRENT_HEAD, type NewDomainAddition, type AppendResult, type DomainAppendPlan } from './append-additions.js'
export { grantDomainAccess, accessKeyHeadOf, type GrantInput, type AccessKeyJwk } from './access-grants.js'
export {
  domainCollections, DOMAIN_REGISTRY, DOMAIN_REDUCER, DOMAIN_REGISTRY_DIGEST, DOMAIN_REDUCER_DIGEST, genesisDomainHead, headAfter, chainedValueOf,
  MAX_REPLAY_ADDITIONS, MAX_REPLAY_EVENT_BYTES, type DomainRef,
} from './domain-records.js'
