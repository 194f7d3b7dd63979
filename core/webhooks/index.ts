/**
 * Webhooks, the Standard Webhooks way: endpoint management (Business tier), the durable outbox
 * enqueued in the same commit as the event, and the delivery worker the hosts run.
 */
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret, updateWebhookEndpoint } from './endpoints.js'
import { prepareWebhookTestEvent } from './test-event.js'

/** @example const useCases = { ...webhookUseCases } */
export const webhookUseCases = {
  listWebhookEndpoints, createWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret, prepareWebhookTestEvent,
} as const satisfies UseCaseRegistry

export { webhookCollections, webhookDeliveries, webhookEndpoints, WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS, type DeliveryRecord, type EndpointRecord, type WebhookEvent } from './records.js'
export { webhookDeliveryWrites, subscribedEndpoints, newDelivery, enqueueWrite } from './outbox.js'
export { deliverDueWebhooks, type DeliveryRoundOptions, type RoundReport } from './delivery-worker.js'
export { signDelivery, newWebhookSecret } from './signature.js'
export { checkWebhookUrl, isPrivateAddress, type WebhookNetworkPolicy } from './webhook-url.js'
export { WEBHOOK_EVENT_TYPES } from './event-types.js'
export { RETRY_DELAYS_MS, MAX_ATTEMPTS, DISABLE_AFTER_FAILING_MS, ATTEMPT_TIMEOUT_MS } from './retry-schedule.js'
