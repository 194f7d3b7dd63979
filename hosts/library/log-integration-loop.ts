/**
 * The host's log integrator: every `intervalMs` it folds newly sequenced leaves into tiles and the
 * next signed checkpoint (core/tlog/integrate.ts), so a leaf is in a checkpoint well within a
 * second. Every host may run one: integration is idempotent and guarded by the tree state's
 * version, so hosts sharing a store never fork the tree. The timer never keeps a process alive.
 */
import { integrateAll, type IntegrateDeps } from '../../core/tlog/integrate.js'
import { LOG_LEAF_STREAM, readLogState } from '../../core/tlog/index.js'

export interface LogIntegrationLoop {
  /** Stop scheduling; settles when a running step has finished. */
  stop(): Promise<void>
}

export interface LogIntegrationOptions {
  /** @default 200 */
  readonly intervalMs?: number
  readonly logError?: (error: unknown, context: string) => void
}

/** @example const loop = startLogIntegration(deps, ready); … await loop.stop() */
export function startLogIntegration(deps: IntegrateDeps, ready: Promise<void>, options: LogIntegrationOptions = {}): LogIntegrationLoop {
  const intervalMs = options.intervalMs ?? 200
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined

  const step = async (): Promise<void> => {
    // Cheap when idle: two reads, and no write unless there is something to integrate.
    const [state, head] = await Promise.all([readLogState(deps.store), deps.store.streamHead(LOG_LEAF_STREAM)])
    if (state && (head?.sequence ?? 0) <= state.value.size) return
    await integrateAll(deps)
  }
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = step()
        .catch((error: unknown) => options.logError?.(error, 'log integration'))
        .finally(schedule)
    }, intervalMs)
    timer.unref()
  }
  ready.then(schedule, () => {})
  return {
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
