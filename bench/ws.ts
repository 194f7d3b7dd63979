/**
 * `npm run bench:ws`: SOCKETS (default 1000) WebSocket clients subscribed to one Live Twin on a
 * Cairn host (`attachWebSocket`), UPDATES (default 50) updates published on the EventBus one after
 * another, each fanned out to every socket: p50/p99 delivery latency (publish to arrival), updates
 * delivered per second, and memory per socket. The baseline is a bare `ws` server broadcasting the
 * same frame to the same number of sockets in the same run. Clients and servers share this process,
 * so latencies include the clients' own parsing. Target: p99 < 25 ms.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import WebSocket, { WebSocketServer } from 'ws'
import { MemoryStore } from '../adapters/memory/index.js'
import { createCairn } from '../hosts/library/create-cairn.js'
import { startHttpServer } from '../hosts/http/start-http-server.js'
import { IDENTITIES, identityValue } from '../core/identity/identities.js'
import { collections } from '../core/usecases/collections.js'
import { twinTopic } from '../core/world/index.js'

const SOCKETS = Number(process.env.SOCKETS ?? 1000)
const UPDATES = Number(process.env.UPDATES ?? 50)

interface Figures { p50: number; p99: number; perSecond: number; bytesPerSocket: number }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** Connects SOCKETS clients, sends `subscribeFrame` on each if given, and waits until `ready` says each is in. */
async function connectAll(url: string, subscribeFrame: string | undefined, onUpdate: (raw: string) => void): Promise<WebSocket[]> {
  const sockets: WebSocket[] = []
  for (let batch = 0; batch < SOCKETS; batch += 100) {
    await Promise.all(Array.from({ length: Math.min(100, SOCKETS - batch) }, () => new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(url)
      sockets.push(socket)
      socket.on('message', (raw) => {
        const text = raw.toString()
        if (text.includes('"subscribed"')) return resolve()
        onUpdate(text)
      })
      socket.once('open', () => (subscribeFrame ? socket.send(subscribeFrame) : resolve()))
      socket.once('error', reject)
    })))
  }
  return sockets
}

/** Publishes UPDATES updates one at a time, each once every socket has it; latencies from publish to arrival. */
async function measure(publish: (sentAt: number) => Promise<void>, arrivals: { count: number; latencies: number[] }): Promise<Omit<Figures, 'bytesPerSocket'>> {
  const started = performance.now()
  for (let i = 0; i < UPDATES; i++) {
    const expected = arrivals.count + SOCKETS
    await publish(performance.now())
    while (arrivals.count < expected) await new Promise((resolve) => setImmediate(resolve))
  }
  const seconds = (performance.now() - started) / 1000
  const sorted = [...arrivals.latencies].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), perSecond: (UPDATES * SOCKETS) / seconds }
}

const recorder = () => {
  const arrivals = { count: 0, latencies: [] as number[] }
  const onUpdate = (raw: string) => {
    const sentAt = Number(/"sentAt":([0-9.]+)/.exec(raw)?.[1])
    arrivals.latencies.push(performance.now() - sentAt)
    arrivals.count++
  }
  return { arrivals, onUpdate }
}

/** Heap and buffers in use after a collection (RSS rarely shrinks, so it cannot be compared across runs). */
const memory = () => {
  globalThis.gc?.()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.external
}

async function bare(): Promise<Figures> {
  const server = createServer()
  const wss = new WebSocketServer({ server })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const before = memory()
  const { arrivals, onUpdate } = recorder()
  const sockets = await connectAll(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, undefined, onUpdate)
  const bytesPerSocket = (memory() - before) / SOCKETS
  const figures = await measure(async (sentAt) => {
    const frame = JSON.stringify({ type: 'update', topic: 'twin:ada', data: { type: 'twin.reply', username: 'ada', reply: 'A reply of ordinary length from the Twin.', sentAt } })
    for (const client of wss.clients) client.send(frame)
  }, arrivals)
  sockets.forEach((socket) => socket.terminate())
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
  const { arrivals, onUpdate } = recorder()
  const sockets = await connectAll(`${server.url.replace('http', 'ws')}/api/world/live`, JSON.stringify({ type: 'subscribe', topic: 'twin:ada' }), onUpdate)
  const bytesPerSocket = (memory() - before) / SOCKETS
  const events = cairn.container.get<import('../ports/event-bus.js').EventBus>(Symbol.for('cairn.EventBus'))
  const figures = await measure((sentAt) => events.publish(twinTopic('ada'), { type: 'twin.reply', username: 'ada', reply: 'A reply of ordinary length from the Twin.', sentAt }), arrivals)
  sockets.forEach((socket) => socket.terminate())
  await cairn.close()
  await server.close()
  return { ...figures, bytesPerSocket }
}

const baseline = await bare()
const cairn = await cairnHost()
const row = (name: string, f: Figures) =>
  `| ${name} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} | ${Math.round(f.perSecond).toLocaleString('en-US')} | ${(f.bytesPerSocket / 1024).toFixed(1)} |`
console.log(`${SOCKETS} sockets, ${UPDATES} updates fanned out to all, clients in the same process (node ${process.version})\n`)
console.log('| server | p50 ms | p99 ms | deliveries/s | KiB per socket (both ends) |')
console.log('|---|---:|---:|---:|---:|')
console.log(row('bare ws broadcast (baseline)', baseline))
console.log(row('Cairn live updates (EventBus → subscriptions)', cairn))
console.log(`\ntarget p99 < 25 ms: ${cairn.p99 < 25 ? 'MET' : 'NOT MET'}`)
process.exit(0)
