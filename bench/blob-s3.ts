/**
 * Throughput of S3BlobStore against a local s3rver (127.0.0.1, temporary directory): put and get
 * in MiB/s, for `npm run bench:store`. Bounded: a few rounds of a fixed size, then it stops the
 * server. Run alone with `npx tsx bench/blob-s3.ts`.
 */
import { pathToFileURL } from 'node:url'
import { startLocalS3Server } from '../adapters/s3/local-s3-server.js'
import { S3BlobStore } from '../adapters/s3/s3-blob-store.js'
import { chunksOf } from '../adapters/shared/test-bytes.js'

/** Figures of one bench run. */
export interface BlobS3Figures {
  readonly sizeMiB: number
  readonly rounds: number
  /** PutObject of a whole buffer. */
  readonly putMiBps: number
  /** putStream: multipart upload in 8 MiB parts, then a server-side copy. */
  readonly putStreamMiBps: number
  /** get: one GetObject, verified. */
  readonly getMiBps: number
  /** getStream: the same, consumed as a stream. */
  readonly getStreamMiBps: number
}

const MiB = 1024 * 1024

/**
 * @example const figures = await benchBlobS3({ sizeMiB: 16, rounds: 3 })
 */
export async function benchBlobS3(options: { sizeMiB?: number; rounds?: number; print?: boolean } = {}): Promise<BlobS3Figures> {
  const sizeMiB = options.sizeMiB ?? 32
  const rounds = options.rounds ?? 3
  const s3 = await startLocalS3Server({ bucket: 'cairn-bench' })
  const store = new S3BlobStore(s3.storeOptions('bench/'))
  try {
    const blobs = Array.from({ length: rounds }, (_, round) => distinctBytes(sizeMiB * MiB, round))
    const streamed = Array.from({ length: rounds }, (_, round) => distinctBytes(sizeMiB * MiB, rounds + round))
    const putMiBps = await measure(sizeMiB, blobs, (bytes) => store.put(bytes))
    const putStreamMiBps = await measure(sizeMiB, streamed, (bytes) => store.putStream(chunksOf(bytes, MiB)))
    const refs = await Promise.all(blobs.map((bytes) => store.put(bytes)))
    const getMiBps = await measure(sizeMiB, refs, (ref) => store.get(ref.sha256))
    const getStreamMiBps = await measure(sizeMiB, refs, async (ref) => {
      for await (const _chunk of (await store.getStream(ref.sha256))!);
    })
    const figures = { sizeMiB, rounds, putMiBps, putStreamMiBps, getMiBps, getStreamMiBps }
    if (options.print ?? true) {
      console.log(
        `blobs=s3 (s3rver, 127.0.0.1) ${rounds} × ${sizeMiB} MiB: put ${putMiBps} MiB/s, putStream ${putStreamMiBps} MiB/s, ` +
          `get ${getMiBps} MiB/s, getStream ${getStreamMiBps} MiB/s`,
      )
    }
    return figures
  } finally {
    await store.close()
    await s3.stop()
  }
}

async function measure<T>(sizeMiB: number, inputs: readonly T[], run: (input: T) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (const input of inputs) await run(input)
  const seconds = (performance.now() - started) / 1000
  return Math.round(((sizeMiB * inputs.length) / seconds) * 10) / 10
}

/** Bytes unique to `seed` (so every put is a real upload, not an idempotent no-op). */
function distinctBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i += 4096) bytes[i] = (seed * 131 + i / 4096) & 0xff
  bytes[0] = seed & 0xff
  bytes[1] = seed >> 8
  return bytes
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchBlobS3()
}
