/**
 * One round of the delivery worker: claim the due deliveries with leases (version-guarded writes,
 * so of several hosts on one store exactly one starts a given attempt), sign each with its
 * endpoint's current secret, send them concurrently, and record each outcome with its endpoint's
 * failure run as soon as its own send ends (outcome-recorder.ts). Claims are one commit for the
 * whole round when nothing races, one per delivery when something does. Every attempt has a
 * deadline counted from the claim, and the lease lasts the deadline plus RECORDING_MARGIN_MS, so a
 * slow receiver can neither hold other outcomes back nor let another host re-send them. A worker
 * that dies mid-attempt leaves the lease to expire and the attempt is made again with the same
 * `webhook-id` (at least once; receivers dedupe on it).
 */
import type { WebhookResponse, WebhookSender } from '../../ports/webhook-sender.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { OutcomeRecorder, putDelivery, type Claimed } from './outcome-recorder.js'
import { webhookDeliveries, webhookEndpoints, type DeliveryRecord, type EndpointRecord } from './records.js'
import { ATTEMPT_TIMEOUT_MS, RECORDING_MARGIN_MS } from './retry-schedule.js'
import { signDelivery } from './signature.js'

export interface DeliveryRoundOptions {
  readonly sender: WebhookSender
  /** How many due deliveries one round takes on. @default 128 */
  readonly batch?: number
  /** How long a claim holds before another worker may try again. @default attempt timeout + RECORDING_MARGIN_MS (15 s) */
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

/** @example await deliverDueWebhooks(deps, { sender }) // { attempted: 3, delivered: 2, full: false } */
export async function deliverDueWebhooks(deps: Deps, options: DeliveryRoundOptions): Promise<RoundReport> {
  const batch = options.batch ?? 128
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const now = deps.clock.now()
  // Every attempt's deadline counts from the moment its lease does, so the lease outlasts deadline plus recording.
  const leaseStart = performance.now()
  const page = await deps.store.query(webhookDeliveries.name, { index: 'due', equals: ['pending'], limit: batch })
  const due = page.items.map((doc) => ({ delivery: webhookDeliveries.decode(doc), version: doc.version })).filter(({ delivery }) => delivery.nextAttemptAtMs <= now)
  const claimed = await claim(deps, due, now + (options.leaseMs ?? timeoutMs + RECORDING_MARGIN_MS))
  if (claimed.length === 0) return { attempted: 0, delivered: 0, full: due.length === batch }

  const endpoints = await loadEndpoints(deps, claimed)
  const recorders = new Map<string, OutcomeRecorder>()
  const recorderOf = (endpointId: string) => recorders.get(endpointId) ?? recorders.set(endpointId, new OutcomeRecorder(deps, endpointId)).get(endpointId)!
  // Each outcome is recorded as soon as its own send ends: one slow receiver holds back nothing else.
  const states = await settleAll(
    claimed.map(async (item) => {
      const remainingMs = Math.max(0, timeoutMs - (performance.now() - leaseStart))
      const response = await send(options.sender, item.delivery, endpoints.get(item.delivery.endpointId), now, remainingMs)
      return recorderOf(item.delivery.endpointId).record(item, response)
    }),
  )
  return { attempted: claimed.length, delivered: states.filter((state) => state === 'delivered').length, full: due.length === batch }
}

/** Start the next attempt of each due delivery: one commit for all, or one each when another worker races. */
async function claim(deps: Deps, due: readonly Claimed[], leaseUntil: number): Promise<Claimed[]> {
  const next = due.map(({ delivery, version }) => ({ version, delivery: { ...delivery, attempts: delivery.attempts + 1, nextAttemptAtMs: leaseUntil } }))
  const writes = next.map(({ delivery, version }) => putDelivery(delivery, version))
  if (writes.length === 0) return []
  if ((await deps.store.commit(writes)).ok) return next.map(({ delivery, version }) => ({ delivery, version: version + 1 }))
  const won = await Promise.all(next.map(async ({ delivery, version }, i) => ((await deps.store.commit([writes[i]!])).ok ? { delivery, version: version + 1 } : undefined)))
  return won.filter((item): item is Claimed => item !== undefined)
}

async function loadEndpoints(deps: Deps, claimed: readonly Claimed[]): Promise<Map<string, { record: EndpointRecord; version: number }>> {
  const ids = [...new Set(claimed.map((item) => item.delivery.endpointId))]
  const docs = await Promise.all(ids.map(async (id) => [id, await webhookEndpoints.get(deps.store, id)] as const))
  return new Map(docs.flatMap(([id, doc]) => (doc ? [[id, { record: doc.value, version: doc.version }] as const] : [])))
}

async function send(sender: WebhookSender, delivery: DeliveryRecord, endpoint: { record: EndpointRecord } | undefined, now: number, timeoutMs: number): Promise<WebhookResponse | undefined> {
  if (!endpoint || !endpoint.record.enabled) return undefined
  const body = JSON.stringify(delivery.event)
  const headers = { 'content-type': 'application/json', 'user-agent': 'Cairn-Webhooks/1', ...signDelivery(endpoint.record.secret, delivery.id, Math.floor(now / 1000), body) }
  const sent = sender.send({ url: endpoint.record.url, headers, body, timeoutMs }).catch((error: unknown) => ({
    kind: 'failed' as const,
    reason: `the delivery could not be sent (${error instanceof Error ? error.name : 'error'})`,
  }))
  // The lease counts on the deadline: a sender that overruns it is not waited for.
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<WebhookResponse>((resolve) => (timer = setTimeout(() => resolve({ kind: 'failed', reason: 'the receiver did not answer in time' }), timeoutMs)))
  return Promise.race([sent, late]).finally(() => clearTimeout(timer))
}

/** Every promise's value once all have settled; the first failure, if any, after all have settled. */
async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises)
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value)
}
