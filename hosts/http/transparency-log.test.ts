/**
 * The log over HTTP, audited by an independent tiles client written here from the C2SP specs
 * alone (node:crypto hashing, its own tile arithmetic): it verifies the checkpoint signature with
 * the published verifier key, rebuilds every leaf hash from the entry bundles, checks each tile
 * level against the one below, recomputes the root, and checks cache headers. In-process and
 * through a listening server.
 */
import { createHash, createPublicKey, verify } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { commitWithLeaves } from '../../core/tlog/sequence.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { pinnedOptions, PINNED_TIME } from './test-support.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'

const sha256 = (...parts: Uint8Array[]) => new Uint8Array(createHash('sha256').update(Buffer.concat(parts)).digest())
const node = (l: Uint8Array, r: Uint8Array) => sha256(new Uint8Array([1]), l, r)

/** The tiles client: fetches through `get`, trusts only the verifier key. */
async function audit(get: (path: string) => Promise<Response>, verifierKey: string) {
  // name+keyid+base64 key (the key itself may contain '+').
  const [, name, keyB64] = /^([^+]+)\+[0-9a-f]{8}\+(.+)$/.exec(verifierKey) as unknown as [string, string, string]
  const publicKey = Buffer.from(keyB64, 'base64').subarray(1)
  const note = await (await get('/log/checkpoint')).text()
  const [text, sigLine] = note.split('\n\n') as [string, string]
  const signature = Buffer.from(sigLine.replace(`— ${name} `, '').trim(), 'base64').subarray(4)
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') }, format: 'jwk' })
  expect(verify(null, Buffer.from(`${text}\n`), key, signature)).toBe(true)
  const [origin, sizeText, rootText] = text.split('\n') as [string, string, string]
  expect(origin).toBe(name)
  const size = Number(sizeText)
  const index = (n: number) => {
    const groups = []
    do groups.unshift(String(n % 1000).padStart(3, '0'))
    while ((n = Math.floor(n / 1000)) > 0)
    return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/')
  }
  const tile = async (level: string, n: number, width: number) => {
    const response = await get(`/log/tile/${level}/${index(n)}${width < 256 ? `.p/${width}` : ''}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('cache-control')).toContain('immutable')
    return new Uint8Array(await response.arrayBuffer())
  }
  // Level by level: leaf hashes from entry bundles, then each level from the full tiles below.
  let hashes: Uint8Array[] = []
  const entries: Uint8Array[] = []
  for (let n = 0; n * 256 < size; n++) {
    const bundle = await tile('entries', n, Math.min(256, size - n * 256))
    for (let at = 0; at < bundle.length; ) {
      const length = (bundle[at]! << 8) | bundle[at + 1]!
      entries.push(bundle.subarray(at + 2, at + 2 + length))
      at += 2 + length
    }
  }
  expect(entries.length).toBe(size)
  hashes = entries.map((entry) => sha256(new Uint8Array([0]), entry))
  const levels: Uint8Array[][] = []
  for (let level = 0; hashes.length > 0; level++) {
    levels.push(hashes)
    const next: Uint8Array[] = []
    for (let n = 0; n * 256 < hashes.length; n++) {
      const width = Math.min(256, hashes.length - n * 256)
      const served = await tile(String(level), n, width)
      expect(Buffer.from(served).equals(Buffer.concat(hashes.slice(n * 256, n * 256 + width)))).toBe(true)
      if (width === 256) {
        let row = hashes.slice(n * 256, n * 256 + 256)
        while (row.length > 1) row = Array.from({ length: row.length / 2 }, (_, i) => node(row[2 * i]!, row[2 * i + 1]!))
        next.push(row[0]!)
      }
    }
    hashes = next
  }
  // RFC 9162 root from the leaf hashes.
  const mth = (leaves: Uint8Array[]): Uint8Array => {
    if (leaves.length === 0) return sha256()
    if (leaves.length === 1) return leaves[0]!
    let k = 1
    while (k * 2 < leaves.length) k *= 2
    return node(mth(leaves.slice(0, k)), mth(leaves.slice(k)))
  }
  expect(Buffer.from(mth(levels[0] ?? [])).toString('base64')).toBe(rootText)
  return { size, entries: entries.map((entry) => JSON.parse(Buffer.from(entry).toString('utf8'))) }
}

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
