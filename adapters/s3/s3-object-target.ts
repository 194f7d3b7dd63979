/**
 * The objects one S3BlobStore owns: a bucket, a key prefix, and the client that reaches them. Every
 * call to S3 goes through `call`, so every failure is translated in one place. Each request gets the
 * client and the SDK's module, which is loaded on first use (an optional dependency).
 */
import type { S3Client } from '@aws-sdk/client-s3'
import { isNoSuchKey, toPortError } from './s3-errors.js'

/** The AWS SDK's S3 module, for its command classes. */
export type S3Sdk = typeof import('@aws-sdk/client-s3')
/** One request to S3, given the client and the SDK module. */
export type S3Request<T> = (s3: S3Client, sdk: S3Sdk) => Promise<T>

/** Where a blob store's objects live and how to reach them. */
export class S3ObjectTarget {
  constructor(
    private readonly connect: () => Promise<{ readonly client: S3Client; readonly sdk: S3Sdk }>,
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
   * @example await target.call((s3, sdk) => s3.send(new sdk.HeadBucketCommand({ Bucket: target.bucket })))
   */
  async call<T>(request: S3Request<T>): Promise<T> {
    try {
      return await this.send(request)
    } catch (error) {
      throw toPortError(error)
    }
  }

  /**
   * Like `call`, but undefined when S3 says the key does not exist (NoSuchKey). A missing bucket
   * (NoSuchBucket) is an unavailable store, never an absent blob.
   */
  async callUnlessMissing<T>(request: S3Request<T>): Promise<T | undefined> {
    try {
      return await this.send(request)
    } catch (error) {
      if (isNoSuchKey(error)) return undefined
      throw toPortError(error)
    }
  }

  /** Run `request` with the client, failures untranslated (the caller reads them first). */
  async raw<T>(request: S3Request<T>): Promise<T> {
    return this.send(request)
  }

  /** Best effort clean-up (a temporary object, an abandoned upload): its failure must not hide the real one. */
  async tidy(request: S3Request<unknown>): Promise<void> {
    await this.send(request).catch(() => undefined)
  }

  private async send<T>(request: S3Request<T>): Promise<T> {
    const { client, sdk } = await this.connect()
    return request(client, sdk)
  }
}
