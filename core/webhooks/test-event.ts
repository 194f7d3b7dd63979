/**
 * `POST /api/developers/webhooks/{endpointId}/test-event`: prepare a signed test delivery of one
 * allowed event type. The answer shows the exact body and headers a receiver gets (signed with the
 * current secret), and the same delivery is enqueued so the receiver really gets it.
 */
import * as E from 'fp-ts/lib/Either.js'
import { conflict, invalidInput } from '../errors/domain-error.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { ownedEndpoint } from './endpoints.js'
import { enqueueWrite, newDelivery } from './outbox.js'
import { businessAccountOf } from '../auth/business-account.js'
import { signDelivery } from './signature.js'

/** What a test event's `data` holds: marked as a test, with the shape of the real event. */
const SAMPLE_DATA: Readonly<Record<string, Record<string, unknown>>> = {
  'creator.run.completed': { runId: 'run_test', requestId: 'req_test', output: 'A test run.', creditsUsed: '0' },
  'twin.message.completed': { messageId: 'twm_test', requestId: 'req_test', username: 'test', reply: 'A test reply.', creditsUsed: '0' },
}

/** @example await prepareWebhookTestEvent({ params: { endpointId }, body: { eventType: 'creator.run.completed' }, principal, … }, deps) */
export const prepareWebhookTestEvent: UseCaseFor<'prepareWebhookTestEvent'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const found = await ownedEndpoint(deps, owner.right, request.params.endpointId)
  if (E.isLeft(found)) return found
  const endpoint = found.right.record
  const type = request.body.eventType
  if (!endpoint.eventTypes.includes(type)) return E.left(invalidInput(`eventType must be one this endpoint allows (${endpoint.eventTypes.join(', ')})`))
  const delivery = newDelivery(deps, endpoint, type, { ...SAMPLE_DATA[type], test: true }, true)
  if (endpoint.enabled) {
    const outcome = await deps.store.commit([enqueueWrite(delivery)])
    if (!outcome.ok) return E.left(conflict('The test delivery could not be enqueued; try again'))
  }
  const body = JSON.stringify(delivery.event)
  const headers = signDelivery(endpoint.secret, delivery.id, Math.floor(deps.clock.now() / 1000), body)
  return E.right(json({ ok: true, enqueued: endpoint.enabled, delivery: { url: endpoint.url, headers, body, event: delivery.event } }, { 'cache-control': 'no-store' }))
}
