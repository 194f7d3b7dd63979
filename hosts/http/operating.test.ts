/** What an operator relies on: probes, HEAD, JSON logs with request ids, Prometheus metrics. */
import { BodyBudget } from './body-budget.js'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { integrateAll } from '../../core/tlog/integrate.js'
import { commitWithLeaves } from '../../core/tlog/sequence.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps, UseCase } from '../../core/usecases/use-case.js'
import { issueValue, valueUseCases } from '../../core/value/index.js'
import { operations } from '../../core/contract/operations/index.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Store } from '../../ports/store.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { createLogger } from './logger.js'
import { memoryDeps } from './describe-env.js'
import { createMetrics, meteredStore } from './metrics.js'
import { metricsHandler } from './metrics-endpoint.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'
import { pinnedOptions } from './test-support.js'

const BASE = 'http://127.0.0.1:8787'

/** A MemoryStore that can lose its database: while unreachable every call but close fails like a dropped connection. */
function breakableStore(): Store & { reachable: boolean } {
  const inner = new MemoryStore()
  const state = { reachable: true }
  return new Proxy(inner as unknown as Store & { reachable: boolean }, {
    get(target, property) {
      if (property === 'reachable') return state.reachable
      const value = Reflect.get(target, property, target) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) =>
        state.reachable || property === 'close' ? (value as (...a: unknown[]) => unknown).apply(target, args) : Promise.reject(new PortUnavailableError('Store', 'connection refused'))
    },
    set(_target, property, value: boolean) {
      if (property !== 'reachable') return false
      state.reachable = value
      return true
    },
  })
}

describe('GET /healthz and GET /readyz', () => {
  const store = breakableStore()
  const cairn = createCairn(pinnedOptions({ baseUrl: BASE, store }))
  afterAll(() => cairn.close())

  it('healthz answers alive', async () => {
    const response = await cairn.fetch(new Request(`${BASE}/healthz`))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true, status: 'alive' })
  })

  it('readyz answers ready when every port reads, and 503 naming the store while it is unreachable', async () => {
    const ready = await cairn.fetch(new Request(`${BASE}/readyz`))
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ ok: true, status: 'ready', ports: ['store', 'blobs', 'keys'] })

    store.reachable = false
    const down = await cairn.fetch(new Request(`${BASE}/readyz`))
    expect(down.status).toBe(503)
    expect(await down.json()).toEqual({ ok: false, error: 'Not ready: store unavailable' })
    // Liveness does not depend on the store: restarting the process would not bring the database back.
    expect((await cairn.fetch(new Request(`${BASE}/healthz`))).status).toBe(200)

    store.reachable = true
    expect((await cairn.fetch(new Request(`${BASE}/readyz`))).status).toBe(200)
  })

  it('are mounted under the base URL path like every route', async () => {
    const mounted = createCairn(pinnedOptions({ baseUrl: 'https://example.com/cairn' }))
    expect((await mounted.fetch(new Request('https://example.com/cairn/healthz'))).status).toBe(200)
    expect((await mounted.fetch(new Request('https://example.com/cairn/readyz'))).status).toBe(200)
    await mounted.close()
  })
})

describe('HEAD on every GET route (RFC 9110 §9.3.2)', () => {
  let cairn: Cairn
  let server: RunningServer
  beforeAll(async () => {
    cairn = createCairn(pinnedOptions({ baseUrl: BASE }))
    server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await server.close()
    await cairn.close()
  })

  const getPaths = [
    ...operations.filter((op) => op.method === 'GET').map((op) => op.path.replace(/\{[^}]+\}/g, 'example')),
    '/api/openapi', '/openapi.json', '/releases', '/releases/compare?from=v108.0.0&to=v129.0.0', '/healthz', '/readyz',
  ]

  it.each(getPaths)('HEAD %s: the GET status and headers, no body', async (path) => {
    const get = await fetch(`${server.url}${path}`)
    const getBody = await get.arrayBuffer()
    const head = await fetch(`${server.url}${path}`, { method: 'HEAD' })
    expect(head.status).toBe(get.status)
    expect(new Uint8Array(await head.arrayBuffer())).toHaveLength(0)
    // Two requests: a route whose answer varies per request (a fresh seed) may differ in length only.
    const comparable = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !['date', 'x-request-id', 'keep-alive', 'connection', 'content-length'].includes(name)))
    expect(comparable(head.headers)).toEqual(comparable(get.headers))
    expect(head.headers.has('content-length')).toBe(get.headers.has('content-length'))
    if (!path.startsWith('/api/signal-circuit/conformance/simulation')) expect(Number(head.headers.get('content-length'))).toBe(getBody.byteLength)
  })

  it('lists HEAD in the Allow header of a GET route', async () => {
    const response = await cairn.fetch(new Request(`${BASE}/releases`, { method: 'DELETE' }))
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('structured logs', () => {
  it('write one JSON line per unexpected failure, with the request id the response echoes', async () => {
    const lines: string[] = []
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(...chunk.toString().split('\n').filter(Boolean)), done()) })
    const store = breakableStore()
    store.reachable = false
    const logger = createLogger({ level: 'info' }, sink)
    const cairn = createCairn({ ...pinnedOptions({ baseUrl: BASE, store, logger }), logError: undefined })
    const response = await cairn.fetch(new Request(`${BASE}/api/ledger/actions/public`, { headers: { 'x-request-id': 'req-42' } }))
    expect(response.status).toBe(503)
    expect(response.headers.get('x-request-id')).toBe('req-42')
    await new Promise((resolve) => setImmediate(resolve))
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries) {
      expect(entry).toMatchObject({ level: 50, name: 'cairn', requestId: 'req-42', msg: 'Cairn could not complete a request' })
      expect(entry.err).toMatchObject({ type: 'PortUnavailableError', message: 'connection refused' })
    }
    await cairn.close()
  })

  it('give a request without a usable id a fresh UUID', async () => {
    const seen: (string | undefined)[] = []
    const store = breakableStore()
    store.reachable = false
    const cairn = createCairn(pinnedOptions({ baseUrl: BASE, store, logError: (_error, _context, requestId) => seen.push(requestId) }))
    const response = await cairn.fetch(new Request(`${BASE}/api/ledger/actions/public`, { headers: { 'x-request-id': 'has spaces' } }))
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(seen).toEqual([response.headers.get('x-request-id')])
    await cairn.close()
  })
})

describe('Prometheus metrics', () => {
  it('count and time requests per operation and status', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    const cairn = createCairn(pinnedOptions({ baseUrl: BASE, metrics }))
    await cairn.fetch(new Request(`${BASE}/api/oidc/jwks`))
    await cairn.fetch(new Request(`${BASE}/api/oidc/jwks`, { method: 'HEAD' }))
    await cairn.fetch(new Request(`${BASE}/api/oidc/userinfo`))
    await cairn.fetch(new Request(`${BASE}/releases`))
    const { body } = await metrics.scrape()
    expect(body).toContain('cairn_http_requests_total{operation="getJwks",method="GET",status="200"} 1')
    expect(body).toContain('cairn_http_requests_total{operation="getJwks",method="HEAD",status="200"} 1')
    expect(body).toMatch(/cairn_http_requests_total\{operation="getUserinfo",method="GET",status="401"\} 1/)
    expect(body).toContain('cairn_http_requests_total{operation="/releases",method="GET",status="200"} 1')
    expect(body).toMatch(/cairn_http_request_duration_seconds_count\{operation="getJwks",method="GET",status="200"\} 1/)
    await cairn.close()
  })

  it('time store commits and count conflicts (the Store decorator)', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    const store = meteredStore(new MemoryStore(), metrics)
    await store.declare([{ name: 'things' }])
    const put = { kind: 'put', collection: 'things', key: 'a', value: { n: 1 }, expect: { kind: 'absent' } } as const
    expect((await store.commit([put])).ok).toBe(true)
    expect((await store.commit([put])).ok).toBe(false)
    const { body } = await metrics.scrape()
    expect(body).toContain('cairn_store_commit_duration_seconds_count{outcome="committed"} 1')
    expect(body).toContain('cairn_store_commit_duration_seconds_count{outcome="conflict"} 1')
    expect(body).toContain('cairn_store_commit_conflicts_total 1')
    expect((await store.get('things', 'a'))?.value).toEqual({ n: 1 })
  })

  it('count the movements each ledger commit batched, and the log leaves sequenced and integrated', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    const memory = new MemoryStore()
    metrics.watchLog(memory)
    const deps: CoreDeps = { ...memoryDeps({ baseUrl: BASE, store: memory }), store: meteredStore(memory, metrics) }
    await memory.declare(collections)
    const gauges = async () => {
      const { body } = await metrics.scrape()
      return [/^cairn_log_sequenced_leaves (\d+)$/m, /^cairn_log_integrated_leaves (\d+)$/m].map((pattern) => Number(pattern.exec(body)?.[1]))
    }
    expect(await gauges()).toEqual([0, 0])

    const [alice, bob] = await Promise.all([createValueUser(memory, 'alice'), createValueUser(memory, 'bob')])
    expect(E.isRight(await issueValue(deps, { userId: alice!, unit: 'phi', amount: '100', idempotencyKey: 'seed' }))).toBe(true)
    const transfer = valueUseCases.createTransfer as unknown as UseCase
    const sent = await Promise.all(Array.from({ length: 12 }, (_, i) => transfer({ params: {}, query: {}, body: { recipientUserId: bob, unit: { currency: 'phi', amount: '1' }, idempotencyKey: `t${i}` }, principal: valueBearer(alice!) }, deps)))
    expect(sent.every(E.isRight)).toBe(true)
    const { body } = await metrics.scrape()
    // 13 movements (the issue and 12 transfers) in fewer commits than movements: the transfers sent together were batched.
    expect(body).toContain('cairn_ledger_movements_per_commit_sum 13')
    const commits = Number(/^cairn_ledger_movements_per_commit_count (\d+)$/m.exec(body)?.[1])
    expect(commits).toBeGreaterThanOrEqual(2)
    expect(commits).toBeLessThan(13)

    // Every movement sequenced a leaf; nothing integrated them yet. A seal's leaves add to the stream; integration catches up.
    await commitWithLeaves(deps, [], [{ kind: 'public_proof', id: 'pp_1', sha256: 'a'.repeat(64) }])
    expect(await gauges()).toEqual([14, 0])
    await integrateAll(deps)
    expect(await gauges()).toEqual([14, 14])

    // A store that cannot answer keeps the log gauges at what was last read; the scrape still answers.
    await memory.close()
    expect(await gauges()).toEqual([14, 14])
    expect((await metrics.scrape()).body).toContain('cairn_ledger_movements_per_commit_sum 13')
  })

  it('keep a gauge of body bytes in flight for the body reader', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    metrics.bodyBytesInFlight.add(1000)
    metrics.bodyBytesInFlight.add(24)
    metrics.bodyBytesInFlight.release(1000)
    expect((await metrics.scrape()).body).toContain('cairn_http_body_bytes_in_flight 24')
  })

  it('see the shared body budget lease and give back bytes', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    const budget = new BodyBudget(1 << 20, metrics.bodyBytesInFlight)
    const lease = budget.lease()
    expect(lease.take(4096)).toBe(true)
    expect((await metrics.scrape()).body).toContain('cairn_http_body_bytes_in_flight 4096')
    lease.release()
    expect((await metrics.scrape()).body).toContain('cairn_http_body_bytes_in_flight 0')
  })

  it('are served on their own listener at GET /metrics, with Node process metrics', async () => {
    const metrics = createMetrics()
    const server = await startHttpServer(metricsHandler(metrics), { host: '127.0.0.1', port: 0 })
    try {
      const response = await fetch(`${server.url}/metrics`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
      const text = await response.text()
      expect(text).toContain('# TYPE cairn_http_requests_total counter')
      expect(text).toContain('cairn_process_cpu_seconds_total')
      expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})
