import { byUrlQuery, pageQuery } from './query-parameters.js'
import { json, operation, optionalJson } from './define.js'

export const publicProofOperations = [
  operation('Public Proof', 'observePublicProof', 'POST /api/public-proof/observe', {
    auth: 'None', request: optionalJson('GenericCairnRequest'), response: 'PublicProofObserveResponse',
    summary: 'Metadata-only trail for a public URL; the original work is not hosted',
  }),
  operation('Public Proof', 'getPublicProofByUrl', 'GET /api/public-proof/by-url', {
    auth: 'None', query: byUrlQuery, response: 'PublicProofLookupResponse', summary: 'Look up the record of a canonical source URL',
  }),
  operation('Public Proof', 'getPublicProof', 'GET /api/public-proof/{id}', {
    auth: 'None', response: 'PublicProofLookupResponse', summary: 'One public proof record',
  }),
  operation('Public Proof', 'listPublicProofsByCreator', 'GET /api/public-proof/creator/{externalCreatorId}', {
    auth: 'None', query: pageQuery, response: 'PublicProofCollectionResponse', summary: 'Records of an external creator',
  }),
  operation('Public Proof', 'listPublicProofsByNamespace', 'GET /api/public-proof/namespace/{namespace}', {
    auth: 'None', query: pageQuery, response: 'PublicProofCollectionResponse',
    summary: 'Records of a namespace, tenant, subdomain or custom domain',
  }),
  operation('Public Proof', 'publishRegistryFeed', 'POST /api/public-proof/registry/feed', {
    auth: 'Bearer', scopes: ['cairn:record'], request: json('CairnAppStateFeed'), response: 'PublicProofRegistryFeedResponse',
    summary: 'Publish app-state projection records (state published); signed partner feeds accepted',
  }),
  operation('Public Proof', 'optionsRegistryFeed', 'OPTIONS /api/public-proof/registry/feed', {
    auth: 'Bearer', scopes: ['cairn:record'], request: json('CairnAppStateFeed'), response: 'PublicProofRegistryFeedResponse',
    summary: 'Declared identically to POST',
  }),
]
