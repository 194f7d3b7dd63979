/**
 * File-system failures at the adapter boundary: a missing file is an answer (the caller gets
 * `undefined`), everything else the system reports (EACCES, ENOSPC, EIO, EROFS, ENOTDIR, EMFILE…)
 * means the disk cannot serve the port now: PortUnavailableError, which hosts answer with 503.
 */
import { PortUnavailableError } from '../../ports/errors.js'

/** True for a Node.js system error with `code`. */
export function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code
}

/** `error` as the port reports it: system errors become PortUnavailableError, others pass through. */
export function toPortError(port: string, error: unknown): unknown {
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error) {
    return new PortUnavailableError(port, `The file system failed: ${error.message}`, { cause: error })
  }
  return error
}

/** Run `task`, translating system errors into PortUnavailableError for `port`. */
export async function translatingFsErrors<T>(port: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    throw toPortError(port, error)
  }
}
