/**
 * Public Proof (docs/public-proof.md): metadata-only records for public URLs, partner app-state
 * projections, each change a leaf of the transparency log.
 */
import { getPublicProof, getPublicProofByUrl, listPublicProofsByCreator, listPublicProofsByNamespace } from './lookups.js'
import { observePublicProof } from './observe.js'
import { optionsRegistryFeed, publishRegistryFeed } from './publish-feed.js'

export const publicProofUseCases = {
  observePublicProof,
  getPublicProofByUrl,
  getPublicProof,
  listPublicProofsByCreator,
  listPublicProofsByNamespace,
  publishRegistryFeed,
  optionsRegistryFeed,
} as const

export { publicProofCollections, publicProofLeaf, observedRecordId, publishedRecordId, type PublicProofRecord } from './records.js'
export { canonicalSourceUrl } from './canonical-url.js'
export { feedSigningBytes, verifyPartnerFeed } from './partner-feed.js'
export { decideFeed, APP_STATE_FEED_SCHEMA, MAX_FEED_RECORDS } from './publish-feed.js'
