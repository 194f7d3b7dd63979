/**
 * One round of the delivery worker: claim the due deliveries with leases (version-guarded writes,
 * so of several hosts on one store exactly one starts a given attempt), sign each with its
 * endpoint's current secret, send them concurrently, and commit the outcomes with the endpoints'
 * failure runs. Claims and outcomes are each one commit for the whole round when nothing races,
 * and fall back to one commit per delivery when something does. A worker that dies mid-attempt
 * leaves the lease to expire and the attempt is made again with the same `webhook-id` (at least
 * once; receivers dedupe on it).
 */
import type { StoredDocument, Write } from '../../ports/store.js'
import type { WebhookResponse, WebhookSender } from '../../ports/webhook-sender.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { decideAttempt } from './decide-attempt.js'
import { asStored, WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS, type DeliveryRecord, type EndpointRecord } from './records.js'
import { ATTEMPT_TIMEOUT_MS } from './retry-schedule.js'
import { signDelivery } from './signature.js'

export interface DeliveryRoundOptions {
  readonly sender: WebhookSender
  /** How many due deliveries one round takes on. @default 128 */
  readonly batch?: number
  /** How long a claim holds before another worker may try again. @default attempt timeout + 15 s */
  readonly leaseMs?: number
  /** @default 15000 */
  readonly timeoutMs?: number
}

export interface RoundReport {
  readonly attempted: number
  readonly delivered: number
  /** Whether the round was full, so more may be due right away. */
  readonly full: boolean
}

type Deps = Pick<CoreDeps, 'store' | 'clock'>

interface Claimed {
  readonly delivery: DeliveryRecord
  readonly version: number
}

/** @example await deliverDueWebhooks(deps, { sender }) // { attempted: 3, delivered: 2, full: false } */
export async function deliverDueWebhooks(deps: Deps, options: DeliveryRoundOptions): Promise<RoundReport> {
  const batch = options.batch ?? 128
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const now = deps.clock.now()
  const page = await deps.store.query(WEBHOOK_DELIVERIES, { index: 'due', equals: ['pending'], limit: batch })
  const due = page.items.filter((doc) => record<DeliveryRecord>(doc).nextAttemptAtMs <= now)
  const claimed = await claim(deps, due, now + (options.leaseMs ?? timeoutMs + 15_000))
  if (claimed.length === 0) return { attempted: 0, delivered: 0, full: due.length === batch }

  const endpoints = await loadEndpoints(deps, claimed)
  const sent = await Promise.all(claimed.map(async (item) => ({ item, response: await send(options.sender, item.delivery, endpoints.get(item.delivery.endpointId), now, timeoutMs) })))
  const states = await commitOutcomes(deps, sent, endpoints)
  return { attempted: claimed.length, delivered: states.filter((state) => state === 'delivered').length, full: due.length === batch }
}

/** Start the next attempt of each due delivery: one commit for all, or one each when another worker races. */
async function claim(deps: Deps, due: readonly StoredDocument[], leaseUntil: number): Promise<Claimed[]> {
  const next = due.map((doc) => ({ doc, delivery: { ...record<DeliveryRecord>(doc), attempts: record<DeliveryRecord>(doc).attempts + 1, nextAttemptAtMs: leaseUntil } }))
  const writes = next.map(({ doc, delivery }) => putDelivery(delivery, doc.version))
  if (writes.length === 0) return []
  if ((await deps.store.commit(writes)).ok) return next.map(({ doc, delivery }) => ({ delivery, version: doc.version + 1 }))
  const won = await Promise.all(next.map(async ({ doc, delivery }, i) => ((await deps.store.commit([writes[i]!])).ok ? { delivery, version: doc.version + 1 } : undefined)))
  return won.filter((item): item is Claimed => item !== undefined)
}

async function loadEndpoints(deps: Deps, claimed: readonly Claimed[]): Promise<Map<string, { record: EndpointRecord; version: number }>> {
  const ids = [...new Set(claimed.map((item) => item.delivery.endpointId))]
  const docs = await Promise.all(ids.map((id) => deps.store.get(WEBHOOK_ENDPOINTS, id)))
  return new Map(docs.flatMap((doc) => (doc ? [[doc.key, { record: record<EndpointRecord>(doc), version: doc.version }] as const] : [])))
}

async function send(sender: WebhookSender, delivery: DeliveryRecord, endpoint: { record: EndpointRecord } | undefined, now: number, timeoutMs: number): Promise<WebhookResponse | undefined> {
  if (!endpoint || !endpoint.record.enabled) return undefined
  const body = JSON.stringify(delivery.event)
  const headers = { 'content-type': 'application/json', 'user-agent': 'Cairn-Webhooks/1', ...signDelivery(endpoint.record.secret, delivery.id, Math.floor(now / 1000), body) }
  return sender.send({ url: endpoint.record.url, headers, body, timeoutMs }).catch((error: unknown) => ({
    kind: 'failed' as const,
    reason: `the delivery could not be sent (${error instanceof Error ? error.name : 'error'})`,
  }))
}

type Sent = { readonly item: Claimed; readonly response: WebhookResponse | undefined }

/**
 * The outcomes, deliveries and endpoints decided in order (one endpoint's failure run sees each of
 * its deliveries), committed at once; on a lost race each delivery is committed alone against the
 * endpoint as it is now.
 */
async function commitOutcomes(deps: Deps, sent: readonly Sent[], endpoints: Map<string, { record: EndpointRecord; version: number }>): Promise<string[]> {
  const now = deps.clock.now()
  const current = new Map([...endpoints].map(([id, endpoint]) => [id, endpoint.record]))
  const decided = sent.map(({ item, response }) => decideOne(item, response, current, now))
  const endpointWrites = [...current].filter(([id, endpoint]) => endpoint !== endpoints.get(id)!.record)
    .map(([id, endpoint]): Write => ({ kind: 'put', collection: WEBHOOK_ENDPOINTS, key: id, value: asStored(endpoint), expect: { kind: 'version', version: endpoints.get(id)!.version } }))
  const writes = [...decided.map((delivery, i) => putDelivery(delivery, sent[i]!.item.version)), ...endpointWrites]
  if ((await deps.store.commit(writes)).ok) return decided.map((delivery) => delivery.state)
  return Promise.all(sent.map(({ item, response }) => commitAlone(deps, item, response)))
}

function decideOne(item: Claimed, response: WebhookResponse | undefined, endpoints: Map<string, EndpointRecord>, now: number): DeliveryRecord {
  const endpoint = endpoints.get(item.delivery.endpointId)
  if (!endpoint || !endpoint.enabled || !response) {
    return { ...item.delivery, state: 'abandoned', lastError: endpoint ? 'the endpoint is disabled' : 'the endpoint was deleted' }
  }
  const outcome = decideAttempt(item.delivery, endpoint, response, now)
  if (outcome.endpoint) endpoints.set(endpoint.id, outcome.endpoint)
  return outcome.delivery
}

async function commitAlone(deps: Deps, item: Claimed, response: WebhookResponse | undefined): Promise<string> {
  for (let tries = 0; tries < 4; tries++) {
    const doc = await deps.store.get(WEBHOOK_ENDPOINTS, item.delivery.endpointId)
    const endpoints = new Map(doc ? [[doc.key, record<EndpointRecord>(doc)]] : [])
    const before = endpoints.get(item.delivery.endpointId)
    const delivery = decideOne(item, response, endpoints, deps.clock.now())
    const after = endpoints.get(item.delivery.endpointId)
    const writes: Write[] = [putDelivery(delivery, item.version)]
    if (doc && after !== before) writes.push({ kind: 'put', collection: WEBHOOK_ENDPOINTS, key: doc.key, value: asStored(after!), expect: { kind: 'version', version: doc.version } })
    const outcome = await deps.store.commit(writes)
    if (outcome.ok) return delivery.state
    if (outcome.conflict.writeIndex === 0) return 'lost' // the lease ran out and another worker took over
  }
  return 'lost'
}

const record = <T>(doc: StoredDocument): T => doc.value as unknown as T
const putDelivery = (delivery: DeliveryRecord, version: number): Write => ({ kind: 'put', collection: WEBHOOK_DELIVERIES, key: delivery.id, value: asStored(delivery), expect: { kind: 'version', version } })
