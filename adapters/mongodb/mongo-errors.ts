/**
 * Reading MongoDB driver errors at the adapter boundary: which ones are lost races (values the port
 * reports), which ones are a retryable transaction hiccup, and which ones mean the database cannot
 * be reached (PortUnavailableError, answered with 503 by the hosts).
 */
import type { MongoError, MongoServerError } from 'mongodb'
import { MissingPackageError } from '../shared/optional-package.js'
import { isMongoError } from './mongo-driver.js'
import { PortUnavailableError } from '../../ports/errors.js'

/** The server's code for a duplicate key on a unique index (E11000). */
export const DUPLICATE_KEY_CODE = 11000

/** True for E11000: an insert or update hit a unique index. */
export function isDuplicateKeyError(error: unknown): error is MongoServerError {
  return isMongoError(error) && (error as MongoServerError).code === DUPLICATE_KEY_CODE
}

/**
 * The name of the unique index an E11000 error names, e.g. `unique_email` or `_id_`.
 *
 * @example duplicateKeyIndexName(error) // 'unique_email'
 */
export function duplicateKeyIndexName(error: MongoServerError): string | undefined {
  const message = String(error.errmsg ?? error.message)
  const named = /index: (\S+) dup key/.exec(message)?.[1]
  if (named !== undefined) return named
  // Older servers and some wire paths only carry the key pattern: `_id` is the primary key.
  const pattern = error.keyPattern as Record<string, unknown> | undefined
  if (pattern !== undefined && Object.keys(pattern).length === 1 && '_id' in pattern) return '_id_'
  return undefined
}

/**
 * True when a transaction was aborted by a collision with another one (WriteConflict and friends):
 * the driver labels these, nothing was written, and running the whole transaction again is the cure.
 * Not UnknownTransactionCommitResult: after that label the commit may have been applied, so the
 * driver retries only the commit, and if that keeps failing the outcome is unknown, not a conflict.
 */
export function isTransientTransactionError(error: unknown): boolean {
  return isMongoError(error) && error.hasErrorLabel('TransientTransactionError')
}

/**
 * The port's view of a driver failure: every MongoDB error that is not a lost race means the
 * database is out of reach or misconfigured, and so does a driver that is not installed; anything
 * else is a bug and travels unchanged.
 */
export function toPortError(port: string, error: unknown): unknown {
  if (error instanceof PortUnavailableError) return error
  if (error instanceof MissingPackageError) return new PortUnavailableError(port, error.message, { cause: error })
  if (isMongoError(error)) {
    return new PortUnavailableError(port, `MongoDB is unavailable (${error.name}: ${error.message})${hintFor(error)}`, { cause: error })
  }
  return error
}

/** A plain sentence for the one misconfiguration operators meet first. */
function hintFor(error: MongoError): string {
  const code = (error as MongoServerError).code
  // 20 IllegalOperation: "Transaction numbers are only allowed on a replica set member or mongos".
  if (code === 20 || /replica set/i.test(error.message)) {
    return '; Cairn needs a replica set for transactions and change streams (see adapters/mongodb/README.md)'
  }
  return ''
}

/** Run `operation`, translating driver failures into port errors. */
export async function translatingMongoErrors<T>(port: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw toPortError(port, error)
  }
}
