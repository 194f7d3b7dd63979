/**
 * Production components (Business tier, scope `cairn:production`): metered Creator and Twin
 * requests, webhook endpoints and the signed webhook delivery envelope. A delivery is a
 * notification only; what it references must be verified independently.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { IsoTimestamp, JsonObject, NonEmptyString, patternString, UrlString } from '../primitives.js'

/** A dotted lowercase event type, e.g. `creator.run.completed`. */
export const WebhookEventType = patternString('WebhookEventType', /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, {
  examples: ['creator.run.completed'],
})

/** Metered Creator production run; `requestId` makes a retry idempotent. */
export const CreatorProductionRunRequest = struct(
  'CreatorProductionRunRequest',
  { requestId: NonEmptyString, quoteExpiresAt: IsoTimestamp, prompt: NonEmptyString },
  {},
  'Creator run. A repeated `requestId` returns the first run and is metered once; after `quoteExpiresAt` the quote is expired and the run is refused without spending credits.',
)

/** Metered message to the caller's owned Twin; `requestId` makes a retry idempotent. */
export const TwinProductionMessageRequest = struct(
  'TwinProductionMessageRequest',
  { requestId: NonEmptyString, quoteExpiresAt: IsoTimestamp, message: NonEmptyString },
  { threadId: NonEmptyString },
  'Twin message. Same metering rules as the Creator run: one charge per `requestId`, refused after `quoteExpiresAt`.',
)

/** Webhook delivery envelope (Standard Webhooks payload: type, timestamp, data). */
export const CairnWebhookEvent = struct(
  'CairnWebhookEvent',
  { schema: t.literal('cairn.webhook_event.v1'), id: NonEmptyString, type: WebhookEventType, createdAt: IsoTimestamp, data: JsonObject },
  { endpointId: NonEmptyString, test: t.boolean },
  'Delivery envelope. `id` is the delivery identity (also the Standard Webhooks `webhook-id` header): deduplicate on it. Verify the signature over the exact raw body before parsing. `test` marks prepared test events.',
)

/** A webhook endpoint as listed; its secret is never shown again after creation or rotation. */
export const WebhookEndpoint = struct(
  'WebhookEndpoint',
  { id: NonEmptyString, url: UrlString, eventTypes: t.array(WebhookEventType), enabled: t.boolean, createdAt: IsoTimestamp, updatedAt: IsoTimestamp },
  { description: t.string, secretPreview: NonEmptyString },
  'Webhook endpoint. `eventTypes` is the allowlist: only those types are delivered. `secretPreview` is the last characters of the secret, for recognition only; the secret itself appears once, in the create or rotate-secret answer.',
)

/** Create a webhook endpoint. */
export const WebhookEndpointCreateRequest = struct(
  'WebhookEndpointCreateRequest',
  { url: UrlString },
  { eventTypes: t.array(WebhookEventType), description: t.string, enabled: t.boolean },
  'New endpoint. `url` must be https (http only for loopback). Omitted `eventTypes` means every event type published at creation, written out explicitly (new types are never added silently); `enabled` defaults to true.',
)

/** Change a webhook endpoint; absent properties keep their value. */
export const WebhookEndpointUpdateRequest = struct(
  'WebhookEndpointUpdateRequest',
  {},
  { url: UrlString, eventTypes: t.array(WebhookEventType), description: t.string, enabled: t.boolean },
  'Endpoint update (PATCH semantics): only the given properties change; `eventTypes` replaces the allowlist.',
)

/** Prepare a signed test delivery of one event type. */
export const WebhookTestEventRequest = struct(
  'WebhookTestEventRequest',
  { eventType: WebhookEventType },
  {},
  'Test event. `eventType` must be in the endpoint\'s allowlist; the answer is the signed delivery envelope with `test: true`.',
)

export const productionComponents = {
  CreatorProductionRunRequest, TwinProductionMessageRequest, CairnWebhookEvent, WebhookEndpoint, WebhookEndpointCreateRequest,
  WebhookEndpointUpdateRequest, WebhookTestEventRequest,
} as const
