/**
 * Content-address checks shared by the blob adapters that keep bytes somewhere they can rot or be
 * replaced (GridFS, S3): hash what is read and compare it with the address it was read from.
 */
import { createHash, type Hash } from 'node:crypto'
import { BlobIntegrityError } from '../../ports/errors.js'

/**
 * True for a lowercase hex SHA-256: the only addresses a blob store looks up, so a caller's string
 * never reaches a key or a file name unchecked.
 *
 * @example isSha256Hex('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855') // true
 */
export function isSha256Hex(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value)
}

/**
 * The chunks of `source`, passed through as they come; after the last one, a BlobIntegrityError if
 * they do not hash to `sha256`.
 */
export async function* verifiedChunks(source: AsyncIterable<Uint8Array>, sha256: string): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256')
  for await (const chunk of source) {
    hash.update(chunk)
    yield chunk
  }
  assertAddress(sha256, hash)
}

/** All bytes of `source`, verified against `sha256` (BlobIntegrityError when they do not match). */
export async function readVerified(source: AsyncIterable<Uint8Array>, sha256: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  for await (const chunk of verifiedChunks(source, sha256)) chunks.push(chunk)
  const joined = Buffer.concat(chunks)
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength)
}

/** Throw BlobIntegrityError unless `hash` (fed every byte read) matches `sha256`. */
export function assertAddress(sha256: string, hash: Hash): void {
  const actual = hash.digest('hex')
  if (actual !== sha256) throw new BlobIntegrityError(sha256, actual)
}

/** The chunks of `source`, each fed to `hash` and counted into `size` on the way through. */
export async function* hashedChunks(
  source: AsyncIterable<Uint8Array>,
  tally: { readonly hash: Hash; size: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    tally.hash.update(chunk)
    tally.size += chunk.byteLength
    yield chunk
  }
}
