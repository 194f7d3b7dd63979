/**
 * Which operations are built: operationId → use case. An operation missing here answers an honest
 * 501 from every host, and the README lists it as not built (scripts/readme-operations.ts).
 */
import { identityUseCases } from '../identity/index.js'
import { oidcUseCases } from '../oidc/index.js'
import { publicProofUseCases } from '../public-proof/index.js'
import { qualifyOperationsServing, runtimeUseCases } from '../runtime/index.js'
import { domainUseCases } from '../runtime/domains/index.js'
import { proofUseCases } from '../proof/operations/index.js'
import { signalUseCases } from '../signal/index.js'
import { webhookUseCases } from '../webhooks/index.js'
import type { UseCaseRegistry } from './use-case.js'
import { valueUseCases } from '../value/index.js'
import { productionUseCases } from '../production/index.js'
import { sportsUseCases } from '../sports/index.js'
import { cardUseCases } from '../cards/index.js'
import { twinUseCases } from '../twin/index.js'
import { worldUseCases } from '../world/index.js'
import { lawfulUseCases } from '../lawful/index.js'

export const useCases: UseCaseRegistry = {
  ...identityUseCases,
  ...oidcUseCases,
  ...publicProofUseCases,
  ...runtimeUseCases,
  ...domainUseCases,
  ...valueUseCases,
  ...proofUseCases,
  ...webhookUseCases,
  ...signalUseCases,
  ...productionUseCases,
  ...sportsUseCases,
  ...cardUseCases,
  ...twinUseCases,
  ...worldUseCases,
  ...lawfulUseCases,
  // Qualification answers from what this registry serves; composing it here keeps runtime/ free of the registry.
  qualifyOperations: qualifyOperationsServing((operationId) => operationId in useCases),
}
