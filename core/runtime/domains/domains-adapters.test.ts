/**
 * Domains on every Store adapter: the same appends (with a race between appenders) answer the same
 * heads, pages, checkpoints and private filtering on SQLite and on MongoDB (fake driver) as in
 * memory, since domains use only the Store port (streams, unique keys, an index, one commit).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { MemoryStore } from '../../../adapters/memory/index.js'
import { MongoStore } from '../../../adapters/mongodb/mongo-store.js'
import { FakeMongoServer } from '../../../adapters/mongodb/testing/index.js'
import { SqliteStore } from '../../../adapters/sqlite/sqlite-store.js'
import { memoryDeps } from '../../../hosts/http/describe-env.js'
import { additions, artifact, bytes, DOMAIN, unwrap } from '../../../hosts/http/domains-test-support.js'
import type { Store } from '../../../ports/store.js'
import { appendDomainAdditions, createDomain } from './append-additions.js'
import { domainCollections } from './domain-records.js'
import { grantedSequences } from './private-additions.js'
import { checkpointProjection, loadDomain, loadPage, replayProjection } from './replay.js'

const dirs: string[] = []
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }) })

const stores: [string, () => Store][] = [
  ['memory', () => new MemoryStore()],
  ['sqlite', () => { const dir = mkdtempSync(join(tmpdir(), 'cairn-domains-')); dirs.push(dir); return new SqliteStore(join(dir, 'store.sqlite')) }],
  ['mongodb (fake driver)', () => new MongoStore({ client: new FakeMongoServer().client() })],
]

/** Appends, races and reads a domain; answers everything a client could see. */
async function story(store: Store) {
  await store.declare(domainCollections)
  const deps = { ...memoryDeps(), store }
  await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
  const first = await unwrap(appendDomainAdditions(deps, DOMAIN, null, additions(100, 'a')))
  // Three appenders race with the same batch on the same head: one wins, whichever it is, the chain is the same.
  const raced = await Promise.all([0, 1, 2].map(() => appendDomainAdditions(deps, DOMAIN, first.head, [
    ...additions(30, 'r', 'other'),
    { appendId: 'p', namespace: 'secret', eventBytes: bytes('x'), private: { visibility: 'grant', ownerSubjectId: 'sub_ada', payload: bytes('s') } },
  ])))
  expect(raced.filter(E.isRight).length).toBe(1)
  const record = await unwrap(loadDomain(deps, DOMAIN))
  const pages = []
  let after: string | null = null
  for (;;) {
    const page = await unwrap(loadPage(deps, record, after))
    const wire = replayProjection(page)
    pages.push({ wire, granted: [...grantedSequences(page.rows, 'sub_bob', { issuerSubjectId: 'sub_ada', namespaces: ['secret'] })] })
    if (wire.status === 'complete') break
    after = wire.head
  }
  const through = (await unwrap(loadPage(deps, record, null))).rows[42]!
  await store.close()
  return { pages, checkpoint: checkpointProjection(record, through) }
}

describe('domains on every Store adapter', () => {
  it('answer what memory answers', async () => {
    const answers = []
    for (const [, make] of stores) answers.push(await story(make()))
    const [memory, ...others] = answers
    expect(memory!.pages.map((p) => p.wire.status)).toEqual(['partial', 'complete'])
    expect(memory!.pages.flatMap((p) => p.granted)).toEqual([130])
    for (const other of others) expect(other).toEqual(memory)
  })
})
