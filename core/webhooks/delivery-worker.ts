/**
 * One round of the delivery worker: claim each due delivery with a lease (a version-guarded write,
 * so of several hosts on one store exactly one starts a given attempt), sign it with the endpoint's
 * current secret, send it, and commit the outcome with the endpoint's failure run. A worker that
 * dies mid-attempt leaves the lease to expire and the attempt is made again with the same
 * `webhook-id` (at least once; receivers dedupe on it).
 */
import type { StoredDocument, Write } from '../../ports/store.js'
import type { WebhookSender } from '../../ports/webhook-sender.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { decideAttempt } from './decide-attempt.js'
import { asStored, WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS, type DeliveryRecord, type EndpointRecord } from './records.js'
import { ATTEMPT_TIMEOUT_MS } from './retry-schedule.js'
import { signDelivery } from './signature.js'

export interface DeliveryRoundOptions {
  readonly sender: WebhookSender
  /** How many due deliveries one round takes on. @default 64 */
  readonly batch?: number
  /** How long a claim holds before another worker may try again. @default attempt timeout + 15 s */
  readonly leaseMs?: number
  /** @default 15000 */
  readonly timeoutMs?: number
}

export interface RoundReport {
  readonly attempted: number
  readonly delivered: number
}

type Deps = Pick<CoreDeps, 'store' | 'clock'>

/** @example await deliverDueWebhooks(deps, { sender }) // { attempted: 3, delivered: 2 } */
export async function deliverDueWebhooks(deps: Deps, options: DeliveryRoundOptions): Promise<RoundReport> {
  const now = deps.clock.now()
  const page = await deps.store.query<never>(WEBHOOK_DELIVERIES, { index: 'due', equals: ['pending'], limit: options.batch ?? 64 })
  const due = page.items.filter((doc) => (doc.value as unknown as DeliveryRecord).nextAttemptAtMs <= now) as unknown as StoredDocument[]
  const results = await Promise.all(due.map((doc) => attempt(deps, doc, options)))
  return { attempted: results.filter((r) => r !== 'skipped').length, delivered: results.filter((r) => r === 'delivered').length }
}

async function attempt(deps: Deps, doc: StoredDocument, options: DeliveryRoundOptions): Promise<'skipped' | 'delivered' | 'failed'> {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const started = deps.clock.now()
  const pending = doc.value as unknown as DeliveryRecord
  const claimed: DeliveryRecord = { ...pending, attempts: pending.attempts + 1, nextAttemptAtMs: started + (options.leaseMs ?? timeoutMs + 15_000) }
  const claim = await deps.store.commit([{ kind: 'put', collection: WEBHOOK_DELIVERIES, key: pending.id, value: asStored(claimed), expect: { kind: 'version', version: doc.version } }])
  if (!claim.ok) return 'skipped' // another worker took it
  const claimVersion = doc.version + 1

  const endpointDoc = await deps.store.get(WEBHOOK_ENDPOINTS, pending.endpointId)
  const endpoint = endpointDoc?.value as unknown as EndpointRecord | undefined
  if (!endpointDoc || !endpoint || !endpoint.enabled) {
    const reason = endpoint ? 'the endpoint is disabled' : 'the endpoint was deleted'
    await deps.store.commit([putDelivery({ ...claimed, state: 'abandoned', lastError: reason }, claimVersion)])
    return 'failed'
  }
  const body = JSON.stringify(claimed.event)
  const headers = { 'content-type': 'application/json', 'user-agent': 'Cairn-Webhooks/1', ...signDelivery(endpoint.secret, claimed.id, Math.floor(started / 1000), body) }
  const response = await options.sender.send({ url: endpoint.url, headers, body, timeoutMs }).catch((error: unknown) => ({ kind: 'failed' as const, reason: `the delivery could not be sent (${error instanceof Error ? error.name : 'error'})` }))
  const outcome = await commitOutcome(deps, claimed, claimVersion, endpointDoc.version, endpoint, response)
  return outcome === 'delivered' ? 'delivered' : 'failed'
}

/** Commit the attempt's outcome; the endpoint may change meanwhile (an update, another delivery), so re-read it on a lost race. */
async function commitOutcome(deps: Deps, claimed: DeliveryRecord, claimVersion: number, endpointVersion: number, endpoint: EndpointRecord, response: Parameters<typeof decideAttempt>[2]) {
  let current = { record: endpoint, version: endpointVersion }
  for (let tries = 0; tries < 4; tries++) {
    const decided = decideAttempt(claimed, current.record, response, deps.clock.now())
    const writes: Write[] = [putDelivery(decided.delivery, claimVersion)]
    if (decided.endpoint) writes.push({ kind: 'put', collection: WEBHOOK_ENDPOINTS, key: current.record.id, value: asStored(decided.endpoint), expect: { kind: 'version', version: current.version } })
    const outcome = await deps.store.commit(writes)
    if (outcome.ok) return decided.delivery.state
    if (outcome.conflict.writeIndex === 0) return 'lost' // our lease ran out and another worker took over
    const fresh = await deps.store.get(WEBHOOK_ENDPOINTS, current.record.id)
    if (!fresh) return deps.store.commit([putDelivery({ ...claimed, state: 'abandoned', lastError: 'the endpoint was deleted' }, claimVersion)]).then(() => 'abandoned')
    current = { record: fresh.value as unknown as EndpointRecord, version: fresh.version }
  }
  return 'lost'
}

const putDelivery = (delivery: DeliveryRecord, version: number): Write => ({ kind: 'put', collection: WEBHOOK_DELIVERIES, key: delivery.id, value: asStored(delivery), expect: { kind: 'version', version } })
