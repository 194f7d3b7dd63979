/**
 * Waiting for another process's SQLite lock without blocking the event loop. Connections run with
 * busy_timeout 0, so SQLite answers SQLITE_BUSY at once instead of sleeping inside a synchronous
 * call (which froze the whole process for up to the timeout); the caller tries again after a
 * randomised, growing pause, and other requests are served meanwhile.
 */
import Database from 'better-sqlite3'

/** True when SQLite refused because another connection holds a lock (SQLITE_BUSY*, SQLITE_LOCKED*). */
export function isBusyError(error: unknown): boolean {
  return error instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED)/.test(error.code)
}

/** The pause before try number `attempt` (0-based): 1 ms doubling to 50 ms, half of it random. */
export function busyPauseMs(attempt: number): number {
  const ceiling = Math.min(50, 2 ** attempt)
  return ceiling / 2 + Math.random() * (ceiling / 2)
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Run `task` until it does not fail with SQLITE_BUSY, for at most `waitMs`; then its last error is thrown.
 *
 * @example const row = await whileBusy(() => statement.get(key), 5000)
 */
export async function whileBusy<T>(task: () => T, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs
  for (let attempt = 0; ; attempt += 1) {
    try {
      return task()
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error
    }
    await sleep(busyPauseMs(attempt))
  }
}
