/**
 * What Cairn keeps of webhooks: endpoints (with the signing secret, which must stay usable to sign)
 * and the durable outbox of deliveries. A delivery is enqueued in the same commit as the event that
 * causes it and carries its stable `webhook-id` through every attempt.
 */
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import type { ComponentType } from '../contract/components.js'
import { CairnWebhookEvent } from '../contract/schemas/production.js'
import { nullableNumber, nullableString, typedCollection } from '../usecases/typed-collection.js'

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints'
export const WEBHOOK_DELIVERIES = 'webhook_deliveries'

/**
 * A receiver. `secret` is `whsec_` + base64 of 32 random bytes (Standard Webhooks secret form);
 * `failingSinceMs` the start of the current run of failed attempts (null after a success).
 */
const EndpointRecordCodec = t.readonly(t.type({
  id: t.string, ownerId: t.string, url: t.string, eventTypes: t.readonlyArray(t.string), enabled: t.boolean, description: nullableString,
  secret: t.string, createdAtMs: t.number, updatedAtMs: t.number, failingSinceMs: nullableNumber, disabledReason: nullableString,
}))
export type EndpointRecord = t.TypeOf<typeof EndpointRecordCodec>

export type WebhookEvent = ComponentType<'CairnWebhookEvent'>

const DeliveryStateCodec = t.keyof({ pending: null, delivered: null, failed: null, abandoned: null })
export type DeliveryState = t.TypeOf<typeof DeliveryStateCodec>

/**
 * One event on its way to one endpoint. `id` is the `webhook-id` header and the event's `id`: the
 * same on every attempt, so consumers dedupe. `attempts` counts attempts started so far (a claimed
 * attempt counts); `nextAttemptAtMs` is when the next attempt is due, or while an attempt runs,
 * when its lease ends; `lastError` what the last failure was, in Cairn's words (never the
 * receiver's body).
 */
const DeliveryRecordCodec = t.readonly(t.type({
  id: t.string, endpointId: t.string, event: CairnWebhookEvent, state: DeliveryStateCodec, attempts: t.number, nextAttemptAtMs: t.number,
  createdAtMs: t.number, deliveredAtMs: nullableNumber, lastError: nullableString,
}))
export type DeliveryRecord = t.TypeOf<typeof DeliveryRecordCodec>

export const webhookEndpoints = typedCollection({ name: WEBHOOK_ENDPOINTS, indexes: [{ name: 'by_owner', fields: ['ownerId', 'createdAtMs'] }] }, EndpointRecordCodec)
export const webhookDeliveries = typedCollection({
  name: WEBHOOK_DELIVERIES, indexes: [{ name: 'due', fields: ['state', 'nextAttemptAtMs'] }, { name: 'by_endpoint', fields: ['endpointId', 'createdAtMs'] }],
}, DeliveryRecordCodec)

export const webhookCollections: readonly CollectionSpec[] = [webhookEndpoints.spec, webhookDeliveries.spec]

/** The endpoint as listed: never the secret, only its last four characters. */
export function endpointWire(endpoint: EndpointRecord): ComponentType<'WebhookEndpoint'> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    eventTypes: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    createdAt: new Date(endpoint.createdAtMs).toISOString(),
    updatedAt: new Date(endpoint.updatedAtMs).toISOString(),
    ...(endpoint.description === null ? {} : { description: endpoint.description }),
    secretPreview: `…${endpoint.secret.slice(-4)}`,
  }
}
