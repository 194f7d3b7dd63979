/**
 * Writing files so they survive a crash whole or not at all: bytes go to a temporary file, which is
 * fsynced, renamed over the final name (atomic on one file system) and made durable by fsyncing the
 * directory that holds the new name.
 */
import { randomUUID } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Write `chunks` to a new temporary file in `directory` and fsync it; the file is removed again if
 * anything fails. Returns its path.
 *
 * @example const tempPath = await writeTempFile('/data/blobs/.incoming', chunks)
 */
export async function writeTempFile(directory: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, mode = 0o644): Promise<string> {
  const path = join(directory, `.tmp-${process.pid}-${randomUUID()}`)
  const file = await open(path, 'wx', mode)
  try {
    for await (const chunk of chunks) {
      // A write may take fewer bytes than offered; go on from where it stopped.
      for (let offset = 0; offset < chunk.byteLength; ) offset += (await file.write(chunk, offset)).bytesWritten
    }
    await file.sync()
  } catch (error) {
    await file.close().catch(() => undefined)
    await rm(path, { force: true })
    throw error
  }
  await file.close()
  return path
}

/** Rename `tempPath` to `finalPath` and fsync the directory of `finalPath`. */
export async function publishFile(tempPath: string, finalPath: string): Promise<void> {
  try {
    await rename(tempPath, finalPath)
  } catch (error) {
    await rm(tempPath, { force: true })
    throw error
  }
  await syncDirectory(dirname(finalPath))
}

/**
 * Replace `path` with `bytes` atomically and durably (temporary file in the same directory).
 *
 * @example await writeFileAtomically('/data/keys.json', [bytes], 0o600)
 */
export async function writeFileAtomically(path: string, chunks: Iterable<Uint8Array>, mode = 0o644): Promise<void> {
  await publishFile(await writeTempFile(dirname(path), chunks, mode), path)
}

/** fsync a directory, so the names created or renamed in it are on disk. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** True for temporary files this module writes (a crash may leave them behind). */
export function isTempFileName(path: string): boolean {
  return basename(path).startsWith('.tmp-')
}
