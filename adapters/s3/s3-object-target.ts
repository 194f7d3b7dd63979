/**
 * The objects one S3BlobStore owns: a bucket, a key prefix, and the client that reaches them. Every
 * call to S3 goes through `call`, so every failure is translated in one place.
 */
import type { S3Client } from '@aws-sdk/client-s3'
import { isNoSuchKey, toPortError } from './s3-errors.js'

/** Where a blob store's objects live and how to reach them. */
export class S3ObjectTarget {
  constructor(
    private readonly connect: () => S3Client,
    readonly bucket: string,
    readonly prefix: string,
  ) {}

  /** The object key of a blob: its SHA-256 under the prefix. */
  blobKey(sha256: string): string {
    return `${this.prefix}${sha256}`
  }

  /**
   * Run `request` with the client; S3's failures become PortUnavailableError.
   *
   * @example await target.call((s3) => s3.send(new HeadBucketCommand({ Bucket: target.bucket })))
   */
  async call<T>(request: (s3: S3Client) => Promise<T>): Promise<T> {
    try {
      return await request(this.connect())
    } catch (error) {
      throw toPortError(error)
    }
  }

  /**
   * Like `call`, but undefined when S3 says the key does not exist (NoSuchKey). A missing bucket
   * (NoSuchBucket) is an unavailable store, never an absent blob.
   */
  async callUnlessMissing<T>(request: (s3: S3Client) => Promise<T>): Promise<T | undefined> {
    try {
      return await request(this.connect())
    } catch (error) {
      if (isNoSuchKey(error)) return undefined
      throw toPortError(error)
    }
  }

  /** Run `request` with the client, failures untranslated (the caller reads them first). */
  async raw<T>(request: (s3: S3Client) => Promise<T>): Promise<T> {
    return request(this.connect())
  }

  /** Best effort clean-up (a temporary object, an abandoned upload): its failure must not hide the real one. */
  async tidy(request: (s3: S3Client) => Promise<unknown>): Promise<void> {
    await request(this.connect()).catch(() => undefined)
  }
}
