/**
 * A child process of sqlite-crash.test.ts, the durable default under load: in the data directory
 * argv[2], argv[3] writers (default 1) run side by side, so their commits share transactions (group
 * commit). Each round of writer w stores a blob (FsBlobStore) and commits three documents plus one
 * entry of stream `rounds-w` that point at it (SqliteStore), then prints `w round` once the commit
 * resolved, i.e. once it was acknowledged. It runs until killed.
 */
import { join } from 'node:path'
import { FsBlobStore } from '../../fs/fs-blob-store.js'
import { SqliteStore } from '../sqlite-store.js'

const dataDir = process.argv[2]!
const writers = Number(process.argv[3] ?? 1)
const store = new SqliteStore(join(dataDir, 'store.sqlite'))
const blobs = new FsBlobStore({ root: join(dataDir, 'blobs') })

async function writer(w: number): Promise<never> {
  let head: string | null = null
  for (let round = 0; ; round += 1) {
    const { sha256 } = await blobs.put(new TextEncoder().encode(`writer ${w} round ${round} `.repeat(500)))
    const outcome = await store.commit([
      ...['a', 'b', 'c'].map((part) => ({
        kind: 'put' as const,
        collection: 'rounds',
        key: `${w}-${round}-${part}`,
        value: { round, part, blob: sha256 },
        expect: { kind: 'absent' as const },
      })),
      { kind: 'append', stream: `rounds-${w}`, value: { round, blob: sha256 }, expectHead: head },
    ])
    if (!outcome.ok) throw new Error(`Writer ${w} round ${round} conflicted: ${JSON.stringify(outcome.conflict)}`)
    head = outcome.appended[0]!.head
    // Writes to a pipe are synchronous on Linux: once this returns, the parent can read the ack.
    process.stdout.write(`${w} ${round}\n`)
  }
}

await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)))
