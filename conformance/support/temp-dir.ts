/** Temporary directories for backends that live on disk; each removes itself. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TempDir {
  readonly path: string
  remove(): Promise<void>
}

/** @example const dir = await makeTempDir('cairn-sqlite-'); … await dir.remove() */
export async function makeTempDir(prefix = 'cairn-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
