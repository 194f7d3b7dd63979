/**
 * What one finished attempt changes, decided without I/O: the delivery's next state and whether its
 * endpoint's failure run starts, continues, ends, or disables it.
 */
import type { WebhookResponse } from '../../ports/webhook-sender.js'
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule.js'
import type { DeliveryRecord, EndpointRecord } from './records.js'

export interface AttemptOutcome {
  readonly delivery: DeliveryRecord
  /** The endpoint as it must be stored, or undefined when it does not change. */
  readonly endpoint: EndpointRecord | undefined
}

/** @example decideAttempt(delivery, endpoint, { kind: 'answered', status: 204 }, now) */
export function decideAttempt(delivery: DeliveryRecord, endpoint: EndpointRecord, response: WebhookResponse, now: number): AttemptOutcome {
  const succeeded = response.kind === 'answered' && response.status >= 200 && response.status < 300
  if (succeeded) {
    return {
      delivery: { ...delivery, state: 'delivered', deliveredAtMs: now, nextAttemptAtMs: now, lastError: null },
      endpoint: endpoint.failingSinceMs === null ? undefined : { ...endpoint, failingSinceMs: null },
    }
  }
  const lastError = response.kind === 'answered' ? `the receiver answered HTTP ${response.status}` : response.reason
  const gone = response.kind === 'answered' && response.status === 410
  const failingSinceMs = endpoint.failingSinceMs ?? now
  const disable = gone || now - failingSinceMs >= DISABLE_AFTER_FAILING_MS
  const exhausted = delivery.attempts >= MAX_ATTEMPTS
  const next: DeliveryRecord = disable || exhausted
    ? { ...delivery, state: disable ? 'abandoned' : 'failed', nextAttemptAtMs: now, lastError }
    : { ...delivery, nextAttemptAtMs: now + RETRY_DELAYS_MS[delivery.attempts - 1]!, lastError }
  const endpointNext: EndpointRecord | undefined = disable
    ? { ...endpoint, enabled: false, failingSinceMs, disabledReason: gone ? 'the receiver answered 410 Gone' : 'every delivery failed for 5 days', updatedAtMs: now }
    : endpoint.failingSinceMs === null ? { ...endpoint, failingSinceMs } : undefined
  return { delivery: next, endpoint: endpointNext }
}
