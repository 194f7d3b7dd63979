/**
 * Every Store collection the use cases need, with its unique keys and indexes. Hosts declare them
 * once at start (`Store.declare` is idempotent), before the first operation runs.
 */
import type { CollectionSpec } from '../../ports/store.js'
import { identityCollections } from '../identity/index.js'
import { oidcCollections } from '../oidc/index.js'
import { publicProofCollections } from '../public-proof/index.js'
import { conformanceCollections } from '../signal/index.js'
import { tlogCollections } from '../tlog/index.js'
import { digestRecordCollections } from '../proof/digest-records.js'
import { webhookCollections } from '../webhooks/index.js'
import { proofCollections } from '../proof/seal-records.js'
import { valueCollections } from '../value/index.js'
import { productionCollections } from '../production/index.js'
import { cardCollections } from '../cards/index.js'
import { twinCollections } from '../twin/index.js'
import { rateLimitCollection } from '../rate-limit/fixed-window.js'
import { worldCollections } from '../world/index.js'
import { lawfulCollections } from '../lawful/index.js'
import { runtimeCollections } from '../runtime/runtime-collections.js'
import { domainCollections } from '../runtime/domains/index.js'

export const collections: readonly CollectionSpec[] = [
  ...identityCollections, ...oidcCollections, ...webhookCollections, ...conformanceCollections, ...tlogCollections, ...publicProofCollections,
  ...proofCollections, ...digestRecordCollections, ...valueCollections, ...productionCollections, ...cardCollections, ...twinCollections, rateLimitCollection, ...worldCollections,
  ...lawfulCollections, ...runtimeCollections,
  ...domainCollections,
]
