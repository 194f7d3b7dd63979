/**
 * Runs the webhook delivery worker beside the host (periodic-task.ts): a round every
 * `pollIntervalMs`, straight on while rounds come back full, stopped by `close()`. Every host of a deployment may run one; leases in the Store keep
 * them from starting the same attempt twice.
 */
import { HttpWebhookSender } from '../../adapters/system/http-webhook-sender.js'
import { deliverDueWebhooks } from '../../core/webhooks/delivery-worker.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import type { WebhookSender } from '../../ports/webhook-sender.js'
import { startPeriodicTask, type PeriodicTask } from './periodic-task.js'

export interface WebhookWorkerOptions {
  /** Run the worker in this process. @default true */
  readonly enabled?: boolean
  /** @default an HttpWebhookSender with the deployment's `webhooks` network policy */
  readonly sender?: WebhookSender
  /** @default 100 */
  readonly pollIntervalMs?: number
}

export type RunningWorker = PeriodicTask<void>

/** @example const worker = startWebhookWorker(deps, ready, {}, logError); await worker.stop() */
export function startWebhookWorker(deps: CoreDeps, ready: Promise<void>, options: WebhookWorkerOptions, logError: (error: unknown, context: string) => void): RunningWorker {
  const sender = options.sender ?? new HttpWebhookSender(deps.config.deployment.webhooks ?? {})
  const attemptSeconds = deps.config.deployment.webhooks?.attemptTimeoutSeconds
  const round = { sender, ...(attemptSeconds === undefined ? {} : { timeoutMs: attemptSeconds * 1000 }) }
  let stopping = false
  const task = startPeriodicTask(
    async () => {
      // A full round means more may be due now: keep going rather than wait for the next tick.
      while (!stopping && (await deliverDueWebhooks(deps, round)).full) {}
    },
    ready,
    { intervalMs: options.pollIntervalMs ?? 100, timer: options.enabled !== false, context: 'webhook delivery round', logError },
  )
  return {
    runNow: task.runNow,
    stop: () => {
      stopping = true
      return task.stop()
    },
  }
}
