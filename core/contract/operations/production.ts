import { json, operation } from './define.js'

const scopes = ['cairn:production']

export const productionOperations = [
  operation('Production', 'runCreator', 'POST /api/developers/creator/run', {
    auth: 'Business', scopes, request: json('CreatorProductionRunRequest'), response: 'CairnApiResponse', summary: 'Metered Creator production run',
  }),
  operation('Production', 'messageOwnedTwin', 'POST /api/developers/twin/{username}/message', {
    auth: 'Business', scopes, request: json('TwinProductionMessageRequest'), response: 'CairnApiResponse',
    summary: 'Metered message to the caller\'s owned Twin',
  }),
  operation('Production', 'listWebhookEndpoints', 'GET /api/developers/webhooks', {
    auth: 'Business', scopes, response: 'CairnApiResponse', summary: 'List webhook endpoints',
  }),
  operation('Production', 'createWebhookEndpoint', 'POST /api/developers/webhooks', {
    auth: 'Business', scopes, request: json('WebhookEndpointCreateRequest'), response: 'CairnApiResponse',
    summary: 'Create webhook endpoint; its secret is shown once',
  }),
  operation('Production', 'updateWebhookEndpoint', 'PATCH /api/developers/webhooks/{endpointId}', {
    auth: 'Business', scopes, request: json('WebhookEndpointUpdateRequest'), response: 'CairnApiResponse', summary: 'Update endpoint',
  }),
  operation('Production', 'deleteWebhookEndpoint', 'DELETE /api/developers/webhooks/{endpointId}', {
    auth: 'Business', scopes, response: 'CairnApiResponse', summary: 'Delete endpoint',
  }),
  operation('Production', 'rotateWebhookSecret', 'POST /api/developers/webhooks/{endpointId}/rotate-secret', {
    auth: 'Business', scopes, response: 'CairnApiResponse', summary: 'Rotate endpoint secret; the new secret is shown once',
  }),
  operation('Production', 'prepareWebhookTestEvent', 'POST /api/developers/webhooks/{endpointId}/test-event', {
    auth: 'Business', scopes, request: json('WebhookTestEventRequest'), response: 'CairnApiResponse',
    summary: 'Prepare a signed test event delivery envelope',
  }),
]
