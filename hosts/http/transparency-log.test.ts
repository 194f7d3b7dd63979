/**
 * The log over HTTP, audited by an independent tiles client written from the C2SP specs alone
 * (tiles-audit-test-support.ts): checkpoint signature, every leaf hash from the entry bundles,
 * each tile level against the one below, the root, cache headers. In-process and through a
 * listening server.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { commitWithLeaves } from '../../core/tlog/sequence.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { pinnedOptions, PINNED_TIME } from './test-support.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'
import { auditTiles as audit } from './tiles-audit-test-support.js'

for (const mode of ['in-process', 'listening'] as const) {
  describe(`transparency log over HTTP [${mode}]`, () => {
    const store = new MemoryStore()
    const keys = new MemoryKeyStore()
    let cairn: Cairn
    let server: RunningServer | undefined
    const BASE = 'http://cairn.log.test'
    const get = (path: string) => (server ? fetch(`${server.url}${path}`) : cairn.fetch(new Request(`${BASE}${path}`)))
    const deps = { store, clock: new FixedClock(PINNED_TIME), entropy: new SeededEntropy('log'), keys: new MemoryKeyStore() }

    beforeAll(async () => {
      cairn = createCairn(pinnedOptions({ baseUrl: BASE, store, keys, logIntegration: { intervalMs: 20 } }))
      await cairn.ready
      if (mode === 'listening') server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    })
    afterAll(async () => {
      await server?.close()
      await cairn.close()
    })

    it('publishes the log key and the signed checkpoint of the empty tree', async () => {
      const key = await (await get('/log/key')).json()
      expect(key).toMatchObject({ ok: true, origin: 'cairn.log.test/log', verifierKey: expect.stringMatching(/^cairn\.log\.test\/log\+[0-9a-f]{8}\+/) })
      const response = await get('/log/checkpoint')
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(response.headers.get('cache-control')).toContain('max-age=1')
      expect(await response.text()).toMatch(/^cairn\.log\.test\/log\n0\n47DEQpj8HBSa\+\/TImW\+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n— cairn\.log\.test\/log /)
      expect((await audit(get, key.verifierKey)).size).toBe(0)
    })

    it('integrates sequenced leaves within a second, and a tiles client audits the whole tree', async () => {
      const key = (await (await get('/log/key')).json()).verifierKey as string
      for (let batch = 0; batch < 3; batch++) {
        await commitWithLeaves(deps, [], Array.from({ length: 100 }, (_, i) => ({ kind: 'test', id: `leaf_${batch}_${i}` })))
      }
      const started = Date.now()
      let size = 0
      while (size < 300 && Date.now() - started < 1000) {
        size = Number((await (await get('/log/checkpoint')).text()).split('\n')[1])
        if (size < 300) await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(size).toBe(300)
      const audited = await audit(get, key)
      expect(audited.entries[299]).toEqual({ kind: 'test', id: 'leaf_2_99' })
    })

    it('answers inclusion and consistency proofs, and refuses bad tile paths and sizes', async () => {
      const inclusion = await (await get('/log/proof/inclusion?index=7')).json()
      expect(inclusion).toMatchObject({ ok: true, leafIndex: 7, treeSize: 300 })
      const consistency = await (await get('/log/proof/consistency?from=100')).json()
      expect(consistency).toMatchObject({ ok: true, from: 100, to: 300, checkpoint: expect.any(String) })
      expect(consistency.consistencyProof.length).toBeGreaterThan(0)
      const leafHash = createHash('sha256').update(Buffer.concat([Buffer.from([0]), Buffer.from('{"id":"leaf_0_7","kind":"test"}')])).digest('hex')
      expect(await (await get(`/log/proof/leaf/${leafHash}`)).json()).toEqual(inclusion)
      expect((await get(`/log/proof/leaf/${'0'.repeat(64)}`)).status).toBe(404)
      expect((await get('/log/proof/leaf/xyz')).status).toBe(400)
      expect((await get('/log/proof/inclusion?index=300')).status).toBe(404)
      expect((await get('/log/proof/inclusion?index=-1')).status).toBe(400)
      expect((await get('/log/proof/consistency?from=5&to=301')).status).toBe(404)
      expect((await get('/log/proof/consistency?from=9&to=5')).status).toBe(400)
      for (const bad of ['/log/tile/0/001', '/log/tile/0/000.p/0', '/log/tile/00/000', '/log/tile/0/001.p/45', '/log/tile/entries/002', '/log/tile/1/000']) {
        expect((await get(bad)).status, bad).toBe(404)
      }
      expect((await get('/log/tile/1/000.p/1')).status).toBe(200)
    })
  })
}
