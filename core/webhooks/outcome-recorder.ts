/**
 * Records the outcomes of one endpoint's attempts as they end. An outcome is committed at once with
 * its endpoint's failure run; those that end while a commit of the same endpoint is in flight go
 * together in the next one, decided in the order they ended, so a round never races itself on the
 * endpoint's version. A delivery whose lease another worker took is dropped ('lost'); a lost race on
 * the endpoint (another host recording meanwhile) is decided again on the endpoint as it is now.
 */
import type { Write } from '../../ports/store.js'
import type { WebhookResponse } from '../../ports/webhook-sender.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { decideAttempt } from './decide-attempt.js'
import { webhookDeliveries, webhookEndpoints, type DeliveryRecord, type DeliveryState, type EndpointRecord } from './records.js'

/** A delivery this worker claimed, at the version its claim left. */
export interface Claimed {
  readonly delivery: DeliveryRecord
  readonly version: number
}

/** What became of an outcome: the delivery's new state, or 'lost' when its lease had gone to another worker. */
export type RecordedState = DeliveryState | 'lost'

/** Tries against the endpoint's version before the outcome is left to the lease (another attempt later). */
const TRIES = 8

interface Waiting {
  readonly item: Claimed
  readonly response: WebhookResponse | undefined
  readonly done: (state: RecordedState) => void
  readonly failed: (error: unknown) => void
}

export class OutcomeRecorder {
  private waiting: Waiting[] = []
  private running = false

  constructor(
    private readonly deps: Pick<CoreDeps, 'store' | 'clock'>,
    private readonly endpointId: string,
  ) {}

  /** Resolves once the outcome is committed (or found lost). `response` undefined: the endpoint is gone or disabled. */
  record(item: Claimed, response: WebhookResponse | undefined): Promise<RecordedState> {
    return new Promise((done, failed) => {
      this.waiting.push({ item, response, done, failed })
      if (!this.running) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.running = true
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0)
      try {
        const states = await this.commitGroup(group)
        group.forEach((waiting, i) => waiting.done(states[i]!))
      } catch (error) {
        for (const waiting of group) waiting.failed(error)
      }
    }
    this.running = false
  }

  private async commitGroup(group: readonly Waiting[]): Promise<RecordedState[]> {
    const states: (RecordedState | undefined)[] = group.map(() => undefined)
    for (let tries = 0; tries < TRIES; tries++) {
      const open = group.flatMap((waiting, i) => (states[i] === undefined ? [{ waiting, i }] : []))
      if (open.length === 0) break
      const doc = await webhookEndpoints.get(this.deps.store, this.endpointId)
      const before = doc?.value
      const endpoints = new Map(before === undefined ? [] : [[this.endpointId, before]])
      const now = this.deps.clock.now()
      const decided = open.map(({ waiting }) => decideOne(waiting.item, waiting.response, endpoints, now))
      const after = endpoints.get(this.endpointId)
      const writes: Write[] = decided.map((delivery, j) => putDelivery(delivery, open[j]!.waiting.item.version))
      if (doc !== undefined && after !== before) writes.push(webhookEndpoints.put(this.endpointId, after!, { kind: 'version', version: doc.version }))
      const outcome = await this.deps.store.commit(writes)
      if (outcome.ok) {
        decided.forEach((delivery, j) => (states[open[j]!.i] = delivery.state))
        break
      }
      // A delivery whose lease ran out and went to another worker is theirs now; the rest is decided again.
      if (outcome.conflict.writeIndex < decided.length) states[open[outcome.conflict.writeIndex]!.i] = 'lost'
    }
    return states.map((state) => state ?? 'lost')
  }
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

export const putDelivery = (delivery: DeliveryRecord, version: number): Write => webhookDeliveries.put(delivery.id, delivery, { kind: 'version', version })
