/**
 * The durable outbox: the deliveries an event causes, as writes the caller commits together with
 * the event itself, so an event is never recorded without its deliveries nor delivered without
 * being recorded. One delivery per enabled endpoint of the owner that allows the event's type.
 */
import type { Write } from '../../ports/store.js'
import { newId } from '../oidc/secrets.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { MAX_ENDPOINTS_PER_ACCOUNT } from './endpoints.js'
import { webhookDeliveries, webhookEndpoints, type DeliveryRecord, type EndpointRecord, type WebhookEvent } from './records.js'

/** A delivery of `event` to `endpoint`, due at once. */
export function newDelivery(deps: Pick<CoreDeps, 'entropy' | 'clock'>, endpoint: EndpointRecord, type: string, data: Record<string, unknown>, test = false): DeliveryRecord {
  const now = deps.clock.now()
  const id = newId(deps, 'msg_')
  const event: WebhookEvent = { schema: 'cairn.webhook_event.v1', id, type, createdAt: new Date(now).toISOString(), data, endpointId: endpoint.id, ...(test ? { test: true } : {}) }
  return { id, endpointId: endpoint.id, event, state: 'pending', attempts: 0, nextAttemptAtMs: now, createdAtMs: now, deliveredAtMs: null, lastError: null }
}

/** The write that enqueues `delivery`. */
export const enqueueWrite = (delivery: DeliveryRecord): Write => webhookDeliveries.put(delivery.id, delivery, { kind: 'absent' })

/** Every enabled endpoint of `ownerId` whose allowlist has `type`: read before a commit that enqueues. */
export async function subscribedEndpoints(deps: Pick<CoreDeps, 'store'>, ownerId: string, type: string): Promise<readonly EndpointRecord[]> {
  const endpoints = await deps.store.query(webhookEndpoints.name, { index: 'by_owner', equals: [ownerId], limit: MAX_ENDPOINTS_PER_ACCOUNT })
  return endpoints.items.map(webhookEndpoints.decode).filter((endpoint) => endpoint.enabled && endpoint.eventTypes.includes(type))
}

/**
 * The writes that enqueue `type` for every enabled endpoint of `ownerId` that allows it.
 *
 * @example const { writes } = await webhookDeliveryWrites(deps, userId, 'creator.run.completed', { runId }); await deps.store.commit([...recordWrites, ...writes])
 */
export async function webhookDeliveryWrites(
  deps: Pick<CoreDeps, 'store' | 'entropy' | 'clock'>,
  ownerId: string,
  type: string,
  data: Record<string, unknown>,
): Promise<{ readonly writes: readonly Write[]; readonly deliveries: readonly DeliveryRecord[] }> {
  const deliveries = (await subscribedEndpoints(deps, ownerId, type)).map((endpoint) => newDelivery(deps, endpoint, type, data))
  return { writes: deliveries.map(enqueueWrite), deliveries }
}
