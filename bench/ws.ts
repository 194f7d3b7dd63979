/**
 * `npm run bench:ws`: SOCKETS (default 1000) WebSocket clients subscribed to one Live Twin on a
 * Cairn host (`attachWebSocket`), UPDATES (default 50) updates published on the EventBus one after
 * another, each fanned out to every socket: p50/p99 delivery latency (publish to arrival), updates
 * delivered per second, and server memory per socket. The baseline is a bare `ws` server
 * broadcasting the same frame to the same number of sockets in the same run. The clients run in
 * their own process (bench/ws-clients.ts). Target: p99 < 25 ms.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { WebSocketServer } from 'ws'
import { MemoryStore } from '../adapters/memory/index.js'
import { createCairn } from '../hosts/library/create-cairn.js'
import { startHttpServer } from '../hosts/http/start-http-server.js'
import { IDENTITIES, identityValue } from '../core/identity/identities.js'
import { collections } from '../core/usecases/collections.js'
import { twinTopic } from '../core/world/index.js'

const SOCKETS = Number(process.env.SOCKETS ?? 1000)
const UPDATES = Number(process.env.UPDATES ?? 50)
const WARMUP = 5

interface Figures { p50: number; p99: number; perSecond: number; bytesPerSocket: number }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
const now = () => performance.timeOrigin + performance.now()

/** The clients, in their own process: resolves once every socket is connected (and subscribed). */
async function startClients(url: string, subscribeFrame?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./ws-clients.ts', import.meta.url).pathname, url, ...(subscribeFrame ? [subscribeFrame] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SOCKETS: String(SOCKETS), UPDATES: String(UPDATES), WARMUP: String(WARMUP) },
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const next = async () => (await lines.next()).value as string
  if (!(await next()).startsWith('ready')) throw new Error('clients did not connect')
  return { child, next }
}

/** Publishes UPDATES updates one at a time, each once every socket has the one before. */
async function measure(clients: Awaited<ReturnType<typeof startClients>>, publish: (sequence: number, sentAt: number) => Promise<void> | void): Promise<Omit<Figures, 'bytesPerSocket'>> {
  let started = performance.now()
  for (let sequence = 0; sequence < WARMUP + UPDATES; sequence++) {
    if (sequence === WARMUP) started = performance.now() // the first WARMUP updates warm the JIT and sockets
    await publish(sequence, now())
    await clients.next() // done <sequence>
  }
  const seconds = (performance.now() - started) / 1000
  const sorted = (JSON.parse(await clients.next()) as number[]).sort((a, b) => a - b)
  clients.child.kill()
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), perSecond: (UPDATES * SOCKETS) / seconds }
}

/** Heap and buffers in use after a collection (RSS rarely shrinks, so it cannot be compared across runs). */
const memory = () => {
  globalThis.gc?.()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.external
}

const REPLY = 'A reply of ordinary length from the Twin.'

async function bare(): Promise<Figures> {
  const server = createServer()
  const wss = new WebSocketServer({ server })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const before = memory()
  const clients = await startClients(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`)
  const bytesPerSocket = (memory() - before) / SOCKETS
  const figures = await measure(clients, (sequence, sentAt) => {
    const frame = JSON.stringify({ type: 'update', topic: 'twin:ada', data: { type: 'twin.reply', username: 'ada', reply: REPLY, sequence, sentAt } })
    for (const client of wss.clients) client.send(frame)
  })
  await new Promise((resolve) => wss.close(resolve))
  await new Promise((resolve) => server.close(resolve))
  return { ...figures, bytesPerSocket }
}

async function cairnHost(): Promise<Figures> {
  const store = new MemoryStore()
  await store.declare(collections)
  const record = { userId: 'usr_ada', username: 'ada', displayName: 'Ada', email: null, localUid: 'ada', keys: [], createdAt: '2026-06-25T00:00:00.000Z', updatedAt: '2026-06-25T00:00:00.000Z' }
  await store.commit([{ kind: 'put', collection: IDENTITIES, key: record.userId, value: identityValue(record), expect: { kind: 'absent' } }])
  const cairn = createCairn({ baseUrl: 'http://127.0.0.1', store, logIntegration: false, webhooks: { enabled: false } })
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0, limits: { maxConnections: SOCKETS + 100 } })
  cairn.attachWebSocket(server.server, { maxFramesPerSecond: 1000 })
  const before = memory()
  const clients = await startClients(`${server.url.replace('http', 'ws')}/api/world/live`, JSON.stringify({ type: 'subscribe', topic: 'twin:ada' }))
  const bytesPerSocket = (memory() - before) / SOCKETS
  const events = cairn.container.get<import('../ports/event-bus.js').EventBus>(Symbol.for('cairn.EventBus'))
  const figures = await measure(clients, (sequence, sentAt) => events.publish(twinTopic('ada'), { type: 'twin.reply', username: 'ada', reply: REPLY, sequence, sentAt }))
  await cairn.close()
  await server.close()
  return { ...figures, bytesPerSocket }
}

const baseline = await bare()
const cairn = await cairnHost()
const row = (name: string, f: Figures) =>
  `| ${name} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} | ${Math.round(f.perSecond).toLocaleString('en-US')} | ${(f.bytesPerSocket / 1024).toFixed(1)} |`
console.log(`${SOCKETS} sockets, ${UPDATES} updates fanned out to all, clients in another process (node ${process.version})\n`)
console.log('| server | p50 ms | p99 ms | deliveries/s | server KiB per socket |')
console.log('|---|---:|---:|---:|---:|')
console.log(row('bare ws broadcast (baseline)', baseline))
console.log(row('Cairn live updates (EventBus → subscriptions)', cairn))
console.log(`\ntarget p99 < 25 ms: ${cairn.p99 < 25 ? 'MET' : 'NOT MET'}`)
process.exit(0)
