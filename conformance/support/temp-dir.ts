/** Temporary directories for backends that live on disk; each removes itself. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eachTest } from './each-test.js'

export interface TempDir {
  readonly path: string
  remove(): Promise<void>
}

/** @example const dir = await makeTempDir('cairn-sqlite-'); … await dir.remove() */
export async function makeTempDir(prefix = 'cairn-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}

/**
 * A fresh temporary directory for every test of the calling describe block, removed after it.
 *
 * @example const dir = eachTempDir('cairn-fs-blobs-'); it('…', () => use(dir().path))
 */
export function eachTempDir(prefix?: string): () => TempDir {
  return eachTest(() => makeTempDir(prefix), (dir) => dir.remove())
}
