/**
 * When the sweeper runs (core/retention): every `intervalMs` in the background of the process
 * that created Cairn, one bounded run at a time, stopped by `close`. Several processes on one
 * store may each run it; version expectations keep their deletions from colliding.
 */
import { sweepExpired, type SweepOptions, type SweepReport } from '../../core/retention/sweep-expired.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import type { EventBus } from '../../ports/event-bus.js'
import { startPeriodicTask, type PeriodicTask } from './periodic-task.js'

export interface SweeperSettings extends Omit<SweepOptions, 'resume'> {
  /** Time between runs. @default 5 minutes */
  readonly intervalMs?: number
}

export const DEFAULT_SWEEP_INTERVAL_MS = 5 * 60 * 1000

export type Sweeper = PeriodicTask<SweepReport>

/**
 * @example const sweeper = startSweeper(deps, ready, {}, logError); await sweeper.stop()
 */
export function startSweeper(
  deps: Pick<CoreDeps, 'store' | 'clock'> & { readonly events?: EventBus },
  ready: Promise<void>,
  settings: SweeperSettings,
  logError: (error: unknown, context: string) => void,
  timer = true,
): Sweeper {
  const options: SweepOptions = { ...settings, resume: new Map<string, string>() }
  const sweep = async () => {
    const report = await sweepExpired(deps, options)
    // A bus that keeps its messages (PostgreSQL) is pruned on the same schedule.
    await deps.events?.prune?.()
    return report
  }
  return startPeriodicTask(sweep, ready, {
    intervalMs: settings.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
    timer,
    context: 'sweeping expired records',
    logError,
  })
}
