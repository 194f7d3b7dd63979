/**
 * SQLite failures at the adapter boundary. A unique-index violation inside a commit is an answer
 * (the store reports UniqueViolation); every other SQLite error (SQLITE_BUSY after the busy
 * timeout, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_CORRUPT…) and every system error
 * (EACCES, ENOSPC…) means the database cannot serve the port now: PortUnavailableError (503).
 */
import Database from 'better-sqlite3'
import { PortUnavailableError } from '../../ports/errors.js'

const PORT = 'Store'

/** True when SQLite refused a write because it broke a unique index. */
export function isUniqueConstraintError(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/** `error` as the port reports it: infrastructure failures become PortUnavailableError, others pass through. */
export function toStorePortError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    return new PortUnavailableError(PORT, `SQLite failed (${error.code}): ${error.message}`, { cause: error })
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error) {
    return new PortUnavailableError(PORT, `The file system failed: ${error.message}`, { cause: error })
  }
  return error
}
