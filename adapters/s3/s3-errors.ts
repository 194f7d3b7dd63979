/**
 * Reading S3 failures at the adapter boundary: "no such object" is an answer (undefined/false);
 * everything else the SDK throws (refused connections, timeouts, access denied, a missing bucket)
 * means the blob store cannot serve, which the port calls PortUnavailableError.
 */
import { PortUnavailableError } from '../../ports/errors.js'

/** True when S3 answered that the object does not exist (GetObject's NoSuchKey, HeadObject's bare 404). */
export function isNotFound(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404
}

/** The port's error for an S3 failure. */
export function toPortError(error: unknown): PortUnavailableError {
  if (error instanceof PortUnavailableError) return error
  const described = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return new PortUnavailableError('BlobStore', `S3 is unavailable (${described})`, { cause: error })
}
