/**
 * The S3 blob backend of the matrix (blobs=s3): S3BlobStore on a local s3rver (127.0.0.1, a free
 * port, a temporary directory), started on the first fixture and stopped after the test file. Each
 * fixture gets a fresh key prefix in one bucket; `corrupt` rewrites the object behind the store's back.
 */
import { afterAll } from 'vitest'
import type { LocalS3Server } from '../../adapters/s3/local-s3-server.js'
import type { BlobBackend } from './types.js'

let running: Promise<LocalS3Server> | undefined

/** The one local S3 server of this test file. */
function localServer(): Promise<LocalS3Server> {
  running ??= import('../../adapters/s3/local-s3-server.js').then(({ startLocalS3Server }) => startLocalS3Server({ bucket: 'cairn-conformance' }))
  return running
}

afterAll(async () => {
  const server = running
  running = undefined
  await (await server)?.stop()
})

export const s3BlobBackend: BlobBackend = {
  blobs: async () => {
    const server = await localServer()
    const [{ S3BlobStore }, { GetObjectCommand, PutObjectCommand }] = await Promise.all([
      import('../../adapters/s3/s3-blob-store.js'),
      import('@aws-sdk/client-s3'),
    ])
    const options = server.storeOptions()
    const raw = server.rawClient()
    return {
      blobs: new S3BlobStore(options),
      // A bucket nobody made: a misconfigured deployment, never "blob absent".
      missingBackend: async () => new S3BlobStore({ ...options, bucket: 'cairn-no-such-bucket' }),
      // Flip one bit in the middle of the stored object, writing it back with a plain client.
      corrupt: async (sha256) => {
        const Key = `${options.prefix}${sha256}`
        const object = await raw.send(new GetObjectCommand({ Bucket: server.bucket, Key }))
        const bytes = await object.Body!.transformToByteArray()
        bytes[bytes.byteLength >> 1]! ^= 0x01
        await raw.send(new PutObjectCommand({ Bucket: server.bucket, Key, Body: bytes }))
      },
    }
  },
}

/** Why the S3 combinations do not run (undefined: they run, on a local s3rver). */
export const s3SkipReason: string | undefined = undefined
