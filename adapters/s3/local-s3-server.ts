/**
 * A throwaway S3-compatible server (s3rver, a dev dependency) on 127.0.0.1, for tests, the
 * conformance matrix and benches: a free port, a fresh temporary directory, one bucket.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { S3Client } from '@aws-sdk/client-s3'
import type { S3BlobStoreOptions } from './s3-blob-store.js'

/** A running local S3 server. */
export interface LocalS3Server {
  readonly endpoint: string
  readonly bucket: string
  /** S3BlobStore options for this server's bucket (prefix: a fresh folder per call unless given). */
  storeOptions(prefix?: string): S3BlobStoreOptions
  /** A plain SDK client of this server, for reading and damaging objects behind a store's back. */
  rawClient(): S3Client
  stop(): Promise<void>
}

/** s3rver checks request signatures against these fixed credentials. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const

/**
 * @example
 * const s3 = await startLocalS3Server()
 * const blobs = new S3BlobStore(s3.storeOptions())
 * // …
 * await s3.stop()
 */
export async function startLocalS3Server(options: { bucket?: string } = {}): Promise<LocalS3Server> {
  const { default: S3rver } = await import('s3rver')
  const bucket = options.bucket ?? 'cairn-test'
  const directory = await mkdtemp(join(tmpdir(), 'cairn-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const clients: S3Client[] = []
  let folders = 0
  return {
    endpoint,
    bucket,
    storeOptions: (prefix) => ({
      bucket,
      prefix: prefix ?? `run-${process.pid}-${(folders += 1)}/`,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: LOCAL_S3_CREDENTIALS,
    }),
    rawClient: () => {
      const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS })
      clients.push(client)
      return client
    },
    stop: async () => {
      for (const client of clients) client.destroy()
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
