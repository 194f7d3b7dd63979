/**
 * Reading S3 failures at the adapter boundary: "no such object" is an answer (undefined/false);
 * everything else the SDK throws (refused connections, timeouts, access denied, a missing bucket)
 * means the blob store cannot serve, which the port calls PortUnavailableError.
 */
import { PortUnavailableError } from '../../ports/errors.js'

/** True when S3 said, in an error body, that the key does not exist (GetObject's NoSuchKey). */
export function isNoSuchKey(error: unknown): boolean {
  return nameOf(error) === 'NoSuchKey'
}

/**
 * True for a 404 without a body (HeadObject's): the key is absent, or the bucket is. Only a request
 * that answers with a body (GetObject) tells which.
 */
export function isBareNotFound(error: unknown): boolean {
  const name = nameOf(error)
  return name !== 'NoSuchKey' && name !== 'NoSuchBucket' && statusOf(error) === 404
}

/** True for 403: on AWS, also what a missing key answers when the caller may not s3:ListBucket. */
export function isForbidden(error: unknown): boolean {
  return statusOf(error) === 403
}

function nameOf(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' ? (error as { name?: string }).name : undefined
}

function statusOf(error: unknown): number | undefined {
  return error !== null && typeof error === 'object' ? (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode : undefined
}

/** The port's error for an S3 failure. */
export function toPortError(error: unknown): PortUnavailableError {
  if (error instanceof PortUnavailableError) return error
  const described = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return new PortUnavailableError('BlobStore', `S3 is unavailable (${described})`, { cause: error })
}
