/**
 * The conformance matrix: every store backend × every blob backend (GridFS only with MongoDB), each
 * combination named `store=<name> blobs=<name>`. A backend's own port suites run once, in the
 * combination with its usual partner (`pairedWith`); the combination suite runs in every one.
 * Backends that cannot run here (no MONGODB_URI, no PostgreSQL binaries, no factory yet) stay in the
 * list with a skip reason, so the skipped combinations are visible in every report.
 */
import { fsBlobBackend } from './backends/fs.js'
import { memoryBlobBackend, memoryStoreBackend } from './backends/memory.js'
import { gridfsBlobBackend, mongodbSkipReason, mongodbStoreBackend } from './backends/mongodb.js'
import { postgresBackend, postgresSkipReason } from './backends/postgres.js'
import { s3BlobBackend, s3SkipReason } from './backends/s3.js'
import { sqliteStoreBackend } from './backends/sqlite.js'
import type { BlobBackend, StoreBackend } from './backends/types.js'

/** One entry of the registry: a backend, or why it cannot run. */
export interface RegisteredBackend<T> {
  readonly name: string
  /** The partner in whose combination this backend's own port suites run. */
  readonly pairedWith: string
  /** Who to blame in the skip message, e.g. 'MongoDB'. */
  readonly family: string
  /** The backend can only be combined with this partner (GridFS lives in MongoDB). */
  readonly onlyWith?: string
  readonly backend: T | undefined
  readonly skipReason?: string | undefined
}

export const STORE_BACKENDS: readonly RegisteredBackend<StoreBackend>[] = [
  { name: 'memory', pairedWith: 'memory', family: 'memory', backend: memoryStoreBackend },
  { name: 'sqlite', pairedWith: 'fs', family: 'SQLite', backend: sqliteStoreBackend },
  { name: 'mongodb', pairedWith: 'gridfs', family: 'MongoDB', backend: mongodbStoreBackend, skipReason: mongodbSkipReason },
  // Blobs stay on fs or S3 beside PostgreSQL (docs/decisions.md): its own suites run with fs.
  { name: 'postgres', pairedWith: 'fs', family: 'PostgreSQL', backend: postgresBackend, skipReason: postgresSkipReason },
]

export const BLOB_BACKENDS: readonly RegisteredBackend<BlobBackend>[] = [
  { name: 'memory', pairedWith: 'memory', family: 'memory', backend: memoryBlobBackend },
  { name: 'fs', pairedWith: 'sqlite', family: 'file system', backend: fsBlobBackend },
  { name: 'gridfs', pairedWith: 'mongodb', family: 'MongoDB', onlyWith: 'mongodb', backend: gridfsBlobBackend, skipReason: mongodbSkipReason },
  { name: 's3', pairedWith: 'memory', family: 'S3', backend: s3BlobBackend, skipReason: s3SkipReason },
]

/** One cell of the matrix. */
export interface Combination {
  /** `store=<name> blobs=<name>`: the prefix of every test name of the cell. */
  readonly name: string
  readonly store: RegisteredBackend<StoreBackend>
  readonly blobs: RegisteredBackend<BlobBackend>
  /** Set when the cell cannot run here. */
  readonly skip: { readonly family: string; readonly reason: string } | undefined
  /** This cell runs the store backend's own suites (Store, EventBus, KeyStore). */
  readonly runsStoreSuites: boolean
  /** This cell runs the blob backend's own suite. */
  readonly runsBlobSuite: boolean
}

/** Every cell, stores outermost. */
export function combinations(): Combination[] {
  const cells: Combination[] = []
  for (const store of STORE_BACKENDS) {
    for (const blobs of BLOB_BACKENDS) {
      if (blobs.onlyWith !== undefined && blobs.onlyWith !== store.name) continue
      cells.push({
        name: `store=${store.name} blobs=${blobs.name}`,
        store,
        blobs,
        skip: skipOf(store) ?? skipOf(blobs),
        runsStoreSuites: store.pairedWith === blobs.name,
        runsBlobSuite: blobs.pairedWith === store.name,
      })
    }
  }
  return cells
}

function skipOf(registered: RegisteredBackend<unknown>): Combination['skip'] {
  if (registered.skipReason !== undefined) return { family: registered.family, reason: registered.skipReason }
  if (registered.backend === undefined) return { family: registered.family, reason: `no ${registered.name} factory is registered` }
  return undefined
}
