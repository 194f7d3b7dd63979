/** The file-system blob backend of the matrix, on a temporary directory it damages directly when asked. */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { FsBlobStore } from '../../adapters/fs/fs-blob-store.js'
import { makeTempDir } from '../support/temp-dir.js'
import type { BlobBackend } from './types.js'

export const fsBlobBackend: BlobBackend = {
  blobs: async () => {
    const dir = await makeTempDir('cairn-blobs-')
    return {
      blobs: new FsBlobStore({ root: dir.path }),
      // The layout is `<root>/<2 hex>/<sha256>`; flip one bit in the middle of the file.
      corrupt: async (sha256) => {
        const path = join(dir.path, sha256.slice(0, 2), sha256)
        const bytes = await readFile(path)
        bytes[bytes.byteLength >> 1]! ^= 0x01
        await writeFile(path, bytes)
      },
      destroy: () => dir.remove(),
    }
  },
}
