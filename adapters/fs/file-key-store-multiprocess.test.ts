import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { spawnScript } from '../sqlite/test-fixtures/spawn-tsx.js'
import { FileKeyStore } from './file-key-store.js'

const FRESH_FILES = 6
const ROTATIONS = 5

/** A child process answering one JSON line per step it is sent. */
class KeyProcess {
  private readonly answers: AsyncIterator<string>
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  }
  static async start(): Promise<KeyProcess> {
    const child = spawnScript(new URL('./test-fixtures/race-keys.ts', import.meta.url), [])
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (code) => code && console.error(`key process exited with ${code}: ${stderr}`))
    const started = new KeyProcess(child)
    const { value } = await started.answers.next()
    if (value !== 'ready') throw new Error(`the key process did not start: ${stderr}`)
    return started
  }
  async step<T>(line: string): Promise<T> {
    this.child.stdin.write(`${line}\n`)
    const { value, done } = await this.answers.next()
    if (done) throw new Error(`the key process ended before answering ${line}`)
    return JSON.parse(value) as T
  }
}

interface FileContent {
  readonly keys: readonly { readonly kid: string; readonly alg: string; readonly purpose: string; readonly retiredAt?: string }[]
}

describe('FileKeyStore shared by two processes', () => {
  const dir = eachTempDir('cairn-file-keys-mp-')
  let processes: KeyProcess[] = []
  afterEach(() => {
    for (const { child } of processes) child.kill()
    processes = []
  })

  it('agrees on one current key when both race the first use, and loses none when both rotate', async () => {
    processes = await Promise.all([KeyProcess.start(), KeyProcess.start()])
    const [a, b] = processes as [KeyProcess, KeyProcess]

    for (let round = 0; round < FRESH_FILES; round += 1) {
      const file = join(dir().path, `first-${round}.json`)
      const [seenByA, seenByB] = await Promise.all([a.step(`first ${file}`), b.step(`first ${file}`)])
      expect(seenByA).toEqual(seenByB)
      const content = JSON.parse(await readFile(file, 'utf8')) as FileContent
      expect(content.keys.map((key) => [key.purpose, key.alg, key.retiredAt])).toEqual(expect.arrayContaining([['token', 'ES256', undefined], ['proof', 'EdDSA', undefined]]))
      expect(content.keys).toHaveLength(2)
    }

    const file = join(dir().path, 'rotated.json')
    const { token: first } = await a.step<{ token: string }>(`first ${file}`)
    const [byA, byB] = await Promise.all([a.step<{ made: string[] }>(`rotate ${file} ${ROTATIONS}`), b.step<{ made: string[] }>(`rotate ${file} ${ROTATIONS}`)])
    const [currentA, currentB] = await Promise.all([a.step<{ current: string }>(`current ${file}`), b.step<{ current: string }>(`current ${file}`)])
    expect(currentA).toEqual(currentB)
    const tokenKeys = (JSON.parse(await readFile(file, 'utf8')) as FileContent).keys.filter((key) => key.purpose === 'token')
    expect(tokenKeys.filter((key) => key.retiredAt === undefined).map((key) => key.kid)).toEqual([currentA.current])
    // Nothing lost: the first key and every key either process made are still kept and published.
    const made = [first, ...byA.made, ...byB.made]
    expect(new Set(tokenKeys.map((key) => key.kid))).toEqual(new Set(made))
    const published = (await new FileKeyStore(file).jwks()).keys.map((jwk) => jwk.kid)
    expect(new Set(published)).toEqual(new Set(made))
  }, 60_000)
})
