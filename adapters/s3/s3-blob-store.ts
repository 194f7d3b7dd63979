/**
 * BlobStore on any S3-compatible object store (AWS S3, MinIO, Cloudflare R2, …). A blob is the
 * object `<prefix><sha256>`: same bytes, same key, so every write is idempotent and stateless hosts
 * can share one bucket. Reads verify the bytes against the key; streams are stored with a multipart
 * upload (see multipart-upload.ts).
 */
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3'
import type { BlobRef, BlobStore } from '../../ports/blob-store.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { isSha256Hex, readVerified, verifiedChunks } from '../shared/verified-blob.js'
import { DEFAULT_PART_SIZE_BYTES, INCOMING_INFIX, MIN_PART_SIZE_BYTES, uploadStream } from './multipart-upload.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { isBareNotFound, isForbidden, isNoSuchKey, toPortError } from './s3-errors.js'
import { S3ObjectTarget, type S3Sdk } from './s3-object-target.js'
import { loadOptionalPackage } from '../shared/optional-package.js'

/** The adapter's name, as configuration and logs spell it. */
export const S3_BLOB_STORE_NAME = 's3'

export interface S3BlobStoreOptions {
  /** The bucket; it must exist (Cairn does not create buckets). */
  readonly bucket: string
  /**
   * Prepended to every object key, e.g. `cairn/blobs/`.
   * @default ''
   */
  readonly prefix?: string
  /**
   * @default process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1'
   */
  readonly region?: string
  /** An S3-compatible endpoint (MinIO, R2, a local s3rver); AWS S3 when absent. */
  readonly endpoint?: string
  /**
   * Address buckets as `<endpoint>/<bucket>` rather than `<bucket>.<endpoint>` (MinIO and most
   * self-hosted servers need this).
   * @default false
   */
  readonly forcePathStyle?: boolean
  /**
   * @default the SDK's provider chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, shared config
   * files, SSO, container and instance roles
   */
  readonly credentials?: S3ClientConfig['credentials']
  /** An already configured client; the store never destroys a client it was given. */
  readonly client?: S3Client
  /**
   * Size of each part of a streamed upload (at least 5 MiB, S3's minimum); a host holds one part in
   * memory per upload in progress.
   * @default 8388608 (8 MiB)
   */
  readonly partSizeBytes?: number
  /**
   * How old a temporary `incoming/` object or multipart upload must be before it counts as abandoned
   * (a host died mid-stream or between the copy and the delete) and is removed: by the first
   * streamed put of each process, or by `collectIncoming()`. Longer than any upload may take.
   * @default 86400000 (one day)
   */
  readonly incomingRetentionMs?: number
}

const DAY_MS = 24 * 60 * 60 * 1000
/** At most this many abandoned objects and uploads are removed per collection run. */
const COLLECT_BATCH = 1000

/**
 * @example
 * const blobs = new S3BlobStore({ bucket: 'cairn', prefix: 'blobs/', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true })
 * const ref = await blobs.put(new TextEncoder().encode('hello'))
 */
export class S3BlobStore implements BlobStore {
  private client: S3Client | undefined
  private closed = false
  private readonly target: S3ObjectTarget
  private readonly partSizeBytes: number
  private incomingCollected: Promise<number> | undefined

  constructor(private readonly options: S3BlobStoreOptions) {
    if (options.bucket === '') throw new TypeError('S3BlobStore needs a bucket')
    this.partSizeBytes = options.partSizeBytes ?? DEFAULT_PART_SIZE_BYTES
    if (this.partSizeBytes < MIN_PART_SIZE_BYTES) throw new RangeError('S3 parts are at least 5 MiB')
    this.target = new S3ObjectTarget(() => this.connect(), options.bucket, options.prefix ?? '')
  }

  async put(bytes: Uint8Array): Promise<BlobRef> {
    const ref = { sha256: sha256Hex(bytes), size: bytes.byteLength }
    await this.putAt(ref, bytes)
    return ref
  }

  async putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobRef> {
    // Once per process, in the background: what earlier hosts left under incoming/.
    this.incomingCollected ??= this.collectIncoming().catch(() => 0)
    return uploadStream(
      {
        target: this.target,
        partSizeBytes: this.partSizeBytes,
        has: (sha256) => this.isStored(sha256),
        putAt: (ref, bytes) => this.putAt(ref, bytes),
      },
      chunks,
    )
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    const body = await this.open(sha256)
    if (body === undefined) return undefined
    return readVerified(readingS3(body), sha256)
  }

  async getStream(sha256: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    const body = await this.open(sha256)
    if (body === undefined) return undefined
    return verifiedChunks(readingS3(body), sha256)
  }

  /**
   * HeadObject; its 404 has no body, so a missing bucket and a missing key look alike there, and a
   * GetObject (whose error names NoSuchKey or NoSuchBucket) tells them apart, only on misses.
   */
  async has(sha256: string): Promise<boolean> {
    if (!isSha256Hex(sha256)) return false
    const { target } = this
    const key = target.blobKey(sha256)
    try {
      await target.raw((s3, sdk) => s3.send(new sdk.HeadObjectCommand({ Bucket: target.bucket, Key: key })))
      return true
    } catch (error) {
      if (isNoSuchKey(error)) return false
      if (!isBareNotFound(error)) throw toPortError(error)
    }
    const object = await target.callUnlessMissing((s3, sdk) => s3.send(new sdk.GetObjectCommand({ Bucket: target.bucket, Key: key })))
    if (object === undefined) return false
    // It appeared meanwhile: do not read it.
    ;(object.Body as { destroy?: () => void } | undefined)?.destroy?.()
    return true
  }

  /**
   * Remove temporary objects and multipart uploads under `<prefix>incoming/` older than `olderThanMs`:
   * what a host that died mid-stream, or between the copy and the delete, left. Needs s3:ListBucket
   * (and s3:ListBucketMultipartUploads for uploads; servers without that listing are skipped). The
   * number removed.
   */
  async collectIncoming(olderThanMs: number = this.options.incomingRetentionMs ?? DAY_MS): Promise<number> {
    const { target } = this
    const Prefix = `${target.prefix}${INCOMING_INFIX}`
    const cutoff = Date.now() - olderThanMs
    const listed = await target.call((s3, sdk) => s3.send(new sdk.ListObjectsV2Command({ Bucket: target.bucket, Prefix, MaxKeys: COLLECT_BATCH })))
    const stale = (listed.Contents ?? []).filter((object) => object.Key !== undefined && (object.LastModified?.getTime() ?? 0) < cutoff)
    for (const object of stale) await target.call((s3, sdk) => s3.send(new sdk.DeleteObjectCommand({ Bucket: target.bucket, Key: object.Key! })))
    let aborted = 0
    try {
      const uploads = await target.raw((s3, sdk) => s3.send(new sdk.ListMultipartUploadsCommand({ Bucket: target.bucket, Prefix, MaxUploads: COLLECT_BATCH })))
      for (const upload of uploads.Uploads ?? []) {
        if (upload.Key === undefined || upload.UploadId === undefined || (upload.Initiated?.getTime() ?? 0) >= cutoff) continue
        await target.call((s3, sdk) => s3.send(new sdk.AbortMultipartUploadCommand({ Bucket: target.bucket, Key: upload.Key!, UploadId: upload.UploadId! })))
        aborted += 1
      }
    } catch (error) {
      // Some S3-compatible servers do not list multipart uploads; a lifecycle rule covers those.
      if ((error as { name?: string }).name !== 'NotImplemented') throw toPortError(error)
    }
    return stale.length + aborted
  }

  /** Destroys the client the store made (an injected one stays open); later calls are PortUnavailableError. */
  async close(): Promise<void> {
    this.closed = true
    if (this.options.client === undefined) this.client?.destroy()
    this.client = undefined
  }

  /** Content addressing makes a second write of the same bytes pointless: look before uploading. */
  private async putAt(ref: BlobRef, bytes: Uint8Array): Promise<void> {
    if (await this.isStored(ref.sha256)) return
    const { target } = this
    await target.call((s3, sdk) =>
      s3.send(
        new sdk.PutObjectCommand({
          Bucket: target.bucket,
          Key: target.blobKey(ref.sha256),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: 'application/octet-stream',
        }),
      ),
    )
  }

  /**
   * Whether a write may be skipped. A look S3 refuses (403: on AWS, a missing key without
   * s3:ListBucket) is not a reason to fail the write: the same bytes are written again instead.
   */
  private async isStored(sha256: string): Promise<boolean> {
    try {
      return await this.has(sha256)
    } catch (error) {
      if (error instanceof PortUnavailableError && isForbidden(error.cause)) return false
      throw error
    }
  }

  private async open(sha256: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    if (!isSha256Hex(sha256)) return undefined
    const { target } = this
    const object = await target.callUnlessMissing((s3, sdk) => s3.send(new sdk.GetObjectCommand({ Bucket: target.bucket, Key: target.blobKey(sha256) })))
    if (object === undefined) return undefined
    // In Node.js the body is an IncomingMessage: a Readable, so an async iterable of Buffers.
    return object.Body as unknown as AsyncIterable<Uint8Array>
  }

  /** The SDK, loaded on first use, and the client, made then (unless one was injected). */
  private async connect(): Promise<{ readonly client: S3Client; readonly sdk: S3Sdk }> {
    if (this.closed) throw new PortUnavailableError('BlobStore', 'The S3 blob store is closed')
    const sdk = await loadOptionalPackage('@aws-sdk/client-s3', 'The S3 blob store', () => import('@aws-sdk/client-s3'))
    if (this.closed) throw new PortUnavailableError('BlobStore', 'The S3 blob store is closed')
    if (this.options.client !== undefined) return { client: this.options.client, sdk }
    this.client ??= new sdk.S3Client({
      region: this.options.region ?? process.env['AWS_REGION'] ?? process.env['AWS_DEFAULT_REGION'] ?? 'us-east-1',
      ...(this.options.endpoint === undefined ? {} : { endpoint: this.options.endpoint }),
      forcePathStyle: this.options.forcePathStyle ?? false,
      ...(this.options.credentials === undefined ? {} : { credentials: this.options.credentials }),
      // Cairn checks every byte against its SHA-256 itself; the SDK's own CRC checksums (on by default
      // since 2025) are not understood by every S3-compatible server.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    return { client: this.client, sdk }
  }
}

/** A body being read: a dropped connection mid-read is the store being unavailable, not corruption. */
async function* readingS3(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* body
  } catch (error) {
    throw toPortError(error)
  }
}
