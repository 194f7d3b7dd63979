/**
 * The host's log integrator: every `intervalMs` it folds newly sequenced leaves into tiles and the
 * next signed checkpoint (core/tlog/integrate.ts), so a leaf is in a checkpoint well within a
 * second. Every host may run one: integration is idempotent and guarded by the tree state's
 * version, so hosts sharing a store never fork the tree.
 */
import { integrateAll, type IntegrateDeps } from '../../core/tlog/integrate.js'
import { LOG_LEAF_STREAM, readLogState } from '../../core/tlog/index.js'
import { startPeriodicTask, type PeriodicTask } from './periodic-task.js'

export type LogIntegrationLoop = PeriodicTask<void>

export interface LogIntegrationOptions {
  /** @default 200 */
  readonly intervalMs?: number
  readonly logError?: (error: unknown, context: string) => void
}

/** @example const loop = startLogIntegration(deps, ready); … await loop.stop() */
export function startLogIntegration(deps: IntegrateDeps, ready: Promise<void>, options: LogIntegrationOptions = {}): LogIntegrationLoop {
  const step = async (): Promise<void> => {
    // Cheap when idle: two reads, and no write unless there is something to integrate.
    const [state, head] = await Promise.all([readLogState(deps.store), deps.store.streamHead(LOG_LEAF_STREAM)])
    if (state && (head?.sequence ?? 0) <= state.value.size) return
    await integrateAll(deps)
  }
  return startPeriodicTask(step, ready, { intervalMs: options.intervalMs ?? 200, context: 'log integration', logError: options.logError ?? (() => {}) })
}
