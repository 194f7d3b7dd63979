/**
 * What Cairn keeps of webhooks: endpoints (with the signing secret, which must stay usable to sign)
 * and the durable outbox of deliveries. A delivery is enqueued in the same commit as the event that
 * causes it and carries its stable `webhook-id` through every attempt.
 */
import type { CollectionSpec, Json } from '../../ports/store.js'
import type { ComponentType } from '../contract/components.js'

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints'
export const WEBHOOK_DELIVERIES = 'webhook_deliveries'

export const webhookCollections: readonly CollectionSpec[] = [
  { name: WEBHOOK_ENDPOINTS, indexes: [{ name: 'by_owner', fields: ['ownerId', 'createdAtMs'] }] },
  { name: WEBHOOK_DELIVERIES, indexes: [{ name: 'due', fields: ['state', 'nextAttemptAtMs'] }, { name: 'by_endpoint', fields: ['endpointId', 'createdAtMs'] }] },
]

export interface EndpointRecord {
  readonly id: string
  readonly ownerId: string
  readonly url: string
  readonly eventTypes: readonly string[]
  readonly enabled: boolean
  readonly description: string | null
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks secret form). */
  readonly secret: string
  readonly createdAtMs: number
  readonly updatedAtMs: number
  /** Start of the current run of failed attempts; null after a success. */
  readonly failingSinceMs: number | null
  readonly disabledReason: string | null
}

export type WebhookEvent = ComponentType<'CairnWebhookEvent'>

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'abandoned'

export interface DeliveryRecord {
  /** The `webhook-id` header and the event's `id`: the same on every attempt, so consumers dedupe. */
  readonly id: string
  readonly endpointId: string
  readonly event: WebhookEvent
  readonly state: DeliveryState
  /** Attempts started so far (a claimed attempt counts). */
  readonly attempts: number
  /** When the next attempt is due; while an attempt runs, when its lease ends. */
  readonly nextAttemptAtMs: number
  readonly createdAtMs: number
  readonly deliveredAtMs: number | null
  /** What the last failure was, in Cairn's words (never the receiver's body). */
  readonly lastError: string | null
}

export const asStored = (record: EndpointRecord | DeliveryRecord): Json => record as unknown as Json

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
