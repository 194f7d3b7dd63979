/**
 * The key file is only replaced over the version that was read: a process that stalls past the
 * lock's stale time, while another takes the lock over and writes, must not overwrite that write
 * (a proof key could be dropped). The stall is played by the change itself: it writes the file as
 * the other process would, then returns its own keys.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { fileKeyRingStorage, FileKeyStore } from './file-key-store.js'

interface FileContent { readonly format: string; readonly keys: readonly { readonly kid: string }[] }

describe('FileKeyStore writing over a file another process changed', () => {
  const dir = eachTempDir('cairn-file-keys-version-')

  it('makes its change again on the keys now there instead of dropping the other process\'s', async () => {
    const file = join(dir().path, 'keys.json')
    await new FileKeyStore({ file }).current('ES256')
    const kidsIn = async () => ((JSON.parse(await readFile(file, 'utf8')) as FileContent).keys.map((key) => key.kid))
    const [original] = await kidsIn()
    const storage = fileKeyRingStorage(file, 5000, Date.now)
    let stalls = 0
    const written = await storage.update(async (records) => {
      if (stalls++ === 0) {
        // Meanwhile, the process that took the lock over adds a key of its own.
        const content = JSON.parse(await readFile(file, 'utf8')) as { keys: { kid: string }[] }
        await writeFile(file, JSON.stringify({ ...content, keys: [...content.keys, { ...content.keys[0]!, kid: 'theirs' }] }))
      }
      return [...records, { ...records[0]!, kid: 'ours' }]
    })
    expect(stalls).toBe(2)
    expect(written.map((record) => record.kid)).toEqual([original, 'theirs', 'ours'])
    expect(await kidsIn()).toEqual([original, 'theirs', 'ours'])
  })
})
