/** The host's webhook worker loop: rounds run on their own, one at a time, and stop with close. */
import { describe, expect, it } from 'vitest'
import { webhookCollections, WEBHOOK_ENDPOINTS, type EndpointRecord } from '../../core/webhooks/records.js'
import { webhookDeliveryWrites } from '../../core/webhooks/outbox.js'
import type { WebhookRequest, WebhookSender } from '../../ports/webhook-sender.js'
import { memoryDeps } from '../http/describe-env.js'
import { startWebhookWorker } from './webhook-worker.js'

describe('startWebhookWorker', () => {
  it('delivers enqueued events on its own, and sends nothing after stop', async () => {
    const deps = memoryDeps()
    await deps.store.declare(webhookCollections)
    const endpoint: EndpointRecord = {
      id: 'whe_1', ownerId: 'usr_1', url: 'https://hooks.example.com/a', eventTypes: ['creator.run.completed'], enabled: true, description: null,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', createdAtMs: 0, updatedAtMs: 0, failingSinceMs: null, disabledReason: null,
    }
    await deps.store.commit([{ kind: 'put', collection: WEBHOOK_ENDPOINTS, key: endpoint.id, value: endpoint as never, expect: { kind: 'absent' } }])
    const sent: WebhookRequest[] = []
    const sender: WebhookSender = { send: async (request) => (sent.push(request), { kind: 'answered', status: 204 }) }
    const worker = startWebhookWorker(deps, Promise.resolve(), { sender, pollIntervalMs: 10 }, (error) => { throw error })
    await deps.store.commit([...(await webhookDeliveryWrites(deps, 'usr_1', 'creator.run.completed', { runId: 'r1' })).writes])
    await expect.poll(() => sent.length, { timeout: 2000 }).toBe(1)
    expect(sent[0]!.headers['webhook-signature']).toMatch(/^v1,/)
    await worker.stop()
    await deps.store.commit([...(await webhookDeliveryWrites(deps, 'usr_1', 'creator.run.completed', { runId: 'r2' })).writes])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sent).toHaveLength(1)
  })
})
