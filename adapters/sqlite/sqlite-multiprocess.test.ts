import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eachTempDir } from '../../conformance/support/temp-dir.js'
import { SqliteStore } from './sqlite-store.js'
import { lineFrom, outputOf, spawnFixture } from './test-fixtures/spawn-tsx.js'

const PROCESSES = 3
const INCREMENTS = 40

describe('SqliteStore shared by several processes', () => {
  const dir = eachTempDir('cairn-sqlite-mp-')

  it(`loses no increment of ${PROCESSES} processes racing on one document`, async () => {
    const file = join(dir().path, 'store.sqlite')
    const store = new SqliteStore(file)
    await store.commit([{ kind: 'put', collection: 'counters', key: 'c', value: { n: 0 }, expect: { kind: 'absent' } }])
    const children = Array.from({ length: PROCESSES }, () => spawnFixture('increment-counter.ts', [file, String(INCREMENTS)]))
    const outputs = children.map(outputOf)
    await Promise.all(children.map((child) => lineFrom(child, 'ready')))
    for (const child of children) child.stdin.end('go\n')
    const conflicts = (await Promise.all(outputs)).reduce((sum, output) => sum + Number(output.trim().split('\n').at(-1)), 0)
    expect(await store.get('counters', 'c')).toMatchObject({ version: PROCESSES * INCREMENTS + 1, value: { n: PROCESSES * INCREMENTS } })
    console.info(`${PROCESSES} processes × ${INCREMENTS} increments: ${conflicts} lost races caught by the version check`)
    await store.close()
  }, 30_000)
})
