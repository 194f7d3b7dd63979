/**
 * Storing a stream whose hash (so whose address) is only known at its end. Bytes are hashed as they
 * pass and sent in 8 MiB parts of a multipart upload to a temporary key (`<prefix>incoming/<uuid>`),
 * so a host never holds more than one part in memory nor needs a local disk; once the stream ends,
 * a server-side CopyObject puts the object at its content address and the temporary one is deleted.
 * A stream that ends within its first part never starts a multipart upload: it is one PutObject.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { CompletedPart } from '@aws-sdk/client-s3'
import type { BlobRef } from '../../ports/blob-store.js'
import { hashedChunks } from '../shared/verified-blob.js'
import type { S3ObjectTarget } from './s3-object-target.js'

/** S3's smallest part (but the last) is 5 MiB; 8 MiB is the AWS CLI's default. */
export const DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024
export const MIN_PART_SIZE_BYTES = 5 * 1024 * 1024
/** CopyObject copies at most 5 GiB in one request. */
export const MAX_STREAMED_BLOB_BYTES = 5 * 1024 * 1024 * 1024

/** Keys of objects still being streamed in; never a content address (those are 64 hex digits). */
export const INCOMING_INFIX = 'incoming/'

/** What the upload needs from its store: where objects go and how a complete blob is stored. */
export interface UploadDestination {
  readonly target: S3ObjectTarget
  readonly partSizeBytes: number
  has(sha256: string): Promise<boolean>
  /** Store bytes already hashed at their address (unless they are there). */
  putAt(ref: BlobRef, bytes: Uint8Array): Promise<void>
}

/** Store `chunks` at their content address; see the file comment for how. */
export async function uploadStream(destination: UploadDestination, chunks: AsyncIterable<Uint8Array>): Promise<BlobRef> {
  const { target, partSizeBytes } = destination
  const tally = { hash: createHash('sha256'), size: 0 }
  const parts = new PartBuffer(partSizeBytes)
  let upload: MultipartUpload | undefined
  try {
    for await (const chunk of hashedChunks(chunks, tally)) {
      for (const part of parts.add(chunk)) {
        upload ??= await MultipartUpload.start(target)
        await upload.send(part)
      }
    }
    const ref = { sha256: tally.hash.digest('hex'), size: tally.size }
    if (upload === undefined) {
      await destination.putAt(ref, parts.rest())
      return ref
    }
    if (ref.size > MAX_STREAMED_BLOB_BYTES) throw new RangeError(`S3BlobStore streams blobs up to 5 GiB; this one has ${ref.size} bytes`)
    const rest = parts.rest()
    if (rest.byteLength > 0) await upload.send(rest)
    await upload.complete()
    if (!(await destination.has(ref.sha256))) await upload.copyTo(target.blobKey(ref.sha256))
    await upload.removeObject()
    return ref
  } catch (error) {
    await upload?.abandon()
    throw error
  }
}

/** One multipart upload to a temporary key. */
class MultipartUpload {
  private readonly parts: CompletedPart[] = []
  private completed = false

  private constructor(
    private readonly target: S3ObjectTarget,
    private readonly key: string,
    private readonly uploadId: string,
  ) {}

  static async start(target: S3ObjectTarget): Promise<MultipartUpload> {
    const key = `${target.prefix}${INCOMING_INFIX}${randomUUID()}`
    const created = await target.call((s3, sdk) => s3.send(new sdk.CreateMultipartUploadCommand({ Bucket: target.bucket, Key: key })))
    if (created.UploadId === undefined) throw new Error('S3 started a multipart upload without an UploadId')
    return new MultipartUpload(target, key, created.UploadId)
  }

  async send(bytes: Uint8Array): Promise<void> {
    const PartNumber = this.parts.length + 1
    const { target, key, uploadId } = this
    const sent = await target.call((s3, sdk) =>
      s3.send(new sdk.UploadPartCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, PartNumber, Body: bytes, ContentLength: bytes.byteLength })),
    )
    this.parts.push({ PartNumber, ETag: sent.ETag })
  }

  async complete(): Promise<void> {
    const { target, key, uploadId, parts } = this
    await target.call((s3, sdk) =>
      s3.send(new sdk.CompleteMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } })),
    )
    this.completed = true
  }

  /** Server-side copy to the content address: the blob appears there whole or not at all. */
  async copyTo(destinationKey: string): Promise<void> {
    const { target, key } = this
    const CopySource = `${target.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`
    await target.call((s3, sdk) => s3.send(new sdk.CopyObjectCommand({ Bucket: target.bucket, Key: destinationKey, CopySource })))
  }

  async removeObject(): Promise<void> {
    const { target, key } = this
    await target.tidy((s3, sdk) => s3.send(new sdk.DeleteObjectCommand({ Bucket: target.bucket, Key: key })))
  }

  /** After a failure: drop the parts (or the temporary object) so nothing is left behind. */
  async abandon(): Promise<void> {
    if (this.completed) return this.removeObject()
    const { target, key, uploadId } = this
    await target.tidy((s3, sdk) => s3.send(new sdk.AbortMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: uploadId })))
  }
}

/** Gathers chunks into parts of exactly `partSize` bytes. */
class PartBuffer {
  private chunks: Uint8Array[] = []
  private length = 0

  constructor(private readonly partSize: number) {}

  /** Add `chunk`; the parts it completes. */
  *add(chunk: Uint8Array): Generator<Uint8Array> {
    this.chunks.push(chunk)
    this.length += chunk.byteLength
    if (this.length < this.partSize) return
    const joined = Buffer.concat(this.chunks)
    let offset = 0
    for (; joined.byteLength - offset >= this.partSize; offset += this.partSize) yield joined.subarray(offset, offset + this.partSize)
    const rest = joined.subarray(offset)
    this.chunks = rest.byteLength > 0 ? [rest] : []
    this.length = rest.byteLength
  }

  /** What is left after the last full part. */
  rest(): Uint8Array {
    const joined = Buffer.concat(this.chunks)
    return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength)
  }
}
