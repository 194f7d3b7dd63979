/**
 * Runs the webhook delivery worker beside the host: a round every `pollIntervalMs` (never two at
 * once, and straight on while rounds come back full), stopped by `close()`. Every host of a deployment may run one; leases in the Store keep
 * them from starting the same attempt twice.
 */
import { HttpWebhookSender } from '../../adapters/system/http-webhook-sender.js'
import { deliverDueWebhooks } from '../../core/webhooks/delivery-worker.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import type { WebhookSender } from '../../ports/webhook-sender.js'

export interface WebhookWorkerOptions {
  /** Run the worker in this process. @default true */
  readonly enabled?: boolean
  /** @default an HttpWebhookSender with the deployment's `webhooks` network policy */
  readonly sender?: WebhookSender
  /** @default 100 */
  readonly pollIntervalMs?: number
}

export interface RunningWorker {
  /** Run one round now (tests, and a nudge after an enqueue). */
  runOnce(): Promise<void>
  stop(): Promise<void>
}

/** @example const worker = startWebhookWorker(deps, ready, {}, logError); await worker.stop() */
export function startWebhookWorker(deps: CoreDeps, ready: Promise<void>, options: WebhookWorkerOptions, logError: (error: unknown, context: string) => void): RunningWorker {
  const sender = options.sender ?? new HttpWebhookSender(deps.config.deployment.webhooks ?? {})
  let running: Promise<void> = Promise.resolve()
  let stopped = false
  const round = () => {
    running = running.then(async () => {
      if (stopped) return
      await ready
      // A full round means more may be due now: keep going rather than wait for the next tick.
      while (!stopped && (await deliverDueWebhooks(deps, { sender })).full) {}
    }).catch((error: unknown) => logError(error, 'webhook delivery round'))
    return running
  }
  const timer = options.enabled === false ? undefined : setInterval(() => void round(), options.pollIntervalMs ?? 100)
  timer?.unref()
  return {
    runOnce: round,
    async stop() {
      stopped = true
      if (timer) clearInterval(timer)
      await running
    },
  }
}
