/**
 * Background work a host repeats (the expiry sweeper, webhook deliveries, log integration): one
 * run at a time, each after storage is ready, ticks from the moment storage is ready, a tick
 * skipped while a run is under way, failures of ticks reported rather than thrown, a timer that
 * never keeps the process alive, and a stop that waits for the run under way.
 */

export interface PeriodicTask<Result> {
  /** One run now, after any run under way; its failure is the caller's. */
  runNow(): Promise<Result>
  /** Stops the timer and waits for the run under way. */
  stop(): Promise<void>
}

export interface PeriodicTaskOptions {
  /** Time between ticks. */
  readonly intervalMs: number
  /** Run on a timer at all (`false`: only `runNow`). @default true */
  readonly timer?: boolean
  /** What a failed tick is reported as. */
  readonly context: string
  readonly logError: (error: unknown, context: string) => void
}

/** @example const task = startPeriodicTask(() => sweepExpired(deps), ready, { intervalMs: 300_000, context: 'sweeping', logError }) */
export function startPeriodicTask<Result>(run: () => Promise<Result>, ready: Promise<void>, options: PeriodicTaskOptions): PeriodicTask<Result> {
  let running: Promise<Result> | undefined
  let stopped = false
  const runNow = async (): Promise<Result> => {
    while (running) await running.catch(() => {})
    running = ready.then(run)
    try {
      return await running
    } finally {
      running = undefined
    }
  }
  let interval: NodeJS.Timeout | undefined
  // Ticks start once storage is ready; a store that never becomes ready is reported by /readyz and
  // by every operation, not by a tick failing again every interval.
  if (options.timer !== false) {
    ready.then(() => {
      if (stopped) return
      interval = setInterval(() => {
        if (!running) runNow().catch((error: unknown) => options.logError(error, options.context))
      }, options.intervalMs)
      interval.unref()
    }, () => {})
  }
  return {
    runNow,
    async stop() {
      stopped = true
      clearInterval(interval)
      await running?.catch(() => {})
    },
  }
}
