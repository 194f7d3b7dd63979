/**
 * When the sweeper runs (core/retention): every `intervalMs` in the background of the process
 * that created Cairn, one bounded run at a time, stopped by `close`. Several processes on one
 * store may each run it; version expectations keep their deletions from colliding.
 */
import { sweepExpired, type SweepOptions, type SweepReport } from '../../core/retention/sweep-expired.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'

export interface SweeperSettings extends Omit<SweepOptions, 'resume'> {
  /** Time between runs. @default 5 minutes */
  readonly intervalMs?: number
}

export const DEFAULT_SWEEP_INTERVAL_MS = 5 * 60 * 1000

export interface Sweeper {
  /** One run now (waits for a run already under way first). */
  runNow(): Promise<SweepReport>
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>
}

/**
 * @example const sweeper = startSweeper(deps, ready, {}, logError); await sweeper.stop()
 */
export function startSweeper(deps: Pick<CoreDeps, 'store' | 'clock'>, ready: Promise<void>, settings: SweeperSettings, logError: (error: unknown, context: string) => void, timer = true): Sweeper {
  const resume = new Map<string, string>()
  const options: SweepOptions = { ...settings, resume }
  let running: Promise<SweepReport> | undefined
  const run = async (): Promise<SweepReport> => {
    while (running) await running.catch(() => {})
    running = ready.then(() => sweepExpired(deps, options))
    try {
      return await running
    } finally {
      running = undefined
    }
  }
  const interval = timer
    ? setInterval(() => {
        if (!running) run().catch((error: unknown) => logError(error, 'sweeping expired records'))
      }, settings.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS)
    : undefined
  interval?.unref() // never what keeps a process alive
  return {
    runNow: run,
    async stop() {
      clearInterval(interval)
      await running?.catch(() => {})
    },
  }
}
