/**
 * `npm run bench:webhooks`: Standard Webhooks deliveries to a local receiver on 127.0.0.1, on memory
 * and SQLite (`synchronous=FULL`), at a steady offered load (default 500 events/s for 5 s): the
 * deliveries per second achieved and the latency from the enqueue commit to the receiver, p50/p99.
 * Baseline in the same run: bare POSTs of the same body to the same receiver from node:http, as
 * fast as one connection pool goes. Target: p99 < 250 ms at 500 deliveries/s.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryStore, SeededEntropy } from '../adapters/memory/index.js'
import { SqliteStore } from '../adapters/sqlite/index.js'
import { HttpWebhookSender, SystemClock } from '../adapters/system/index.js'
import { webhookDeliveryWrites } from '../core/webhooks/outbox.js'
import { webhookCollections, webhookEndpoints, type EndpointRecord } from '../core/webhooks/records.js'
import type { CoreDeps } from '../core/usecases/use-case.js'
import { memoryDeps } from '../hosts/http/describe-env.js'
import { startWebhookWorker } from '../hosts/library/webhook-worker.js'
import type { Store } from '../ports/store.js'

const RATE = Number(process.env.BENCH_RATE ?? 500)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)

const latencies: number[] = []
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { enqueuedAt?: number } }
    if (event.data.enqueuedAt !== undefined) latencies.push(performance.timeOrigin + performance.now() - event.data.enqueuedAt)
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN

async function bareBaseline(): Promise<number> {
  const body = JSON.stringify({ schema: 'cairn.webhook_event.v1', id: 'msg_x', type: 'creator.run.completed', createdAt: new Date().toISOString(), data: {} })
  const post = () => new Promise<void>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => res.resume().on('end', resolve))
    req.on('error', reject)
    req.end(body)
  })
  const started = performance.now()
  let sent = 0
  while (performance.now() - started < SECONDS * 1000) {
    await Promise.all(Array.from({ length: 32 }, post))
    sent += 32
  }
  return sent / ((performance.now() - started) / 1000)
}

async function run(name: string, store: Store): Promise<string> {
  latencies.length = 0
  const deps: CoreDeps = { ...memoryDeps(), clock: new SystemClock(), entropy: new SeededEntropy(name), store }
  await store.declare(webhookCollections)
  const now = Date.now()
  const endpoint: EndpointRecord = {
    id: 'whe_bench', ownerId: 'usr_bench', url, eventTypes: ['creator.run.completed'], enabled: true, description: null,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', createdAtMs: now, updatedAtMs: now, failingSinceMs: null, disabledReason: null,
  }
  await store.commit([webhookEndpoints.put(endpoint.id, endpoint, { kind: 'absent' })])
  const worker = startWebhookWorker(deps, Promise.resolve(), { sender: new HttpWebhookSender({ allowHttpLoopback: true, allowPrivateNetworks: true }) }, (error) => console.error(error))
  const total = RATE * SECONDS
  const started = performance.now()
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    const { writes } = await webhookDeliveryWrites(deps, 'usr_bench', 'creator.run.completed', { seq: i, enqueuedAt: performance.timeOrigin + performance.now() })
    void store.commit(writes)
  }
  const deadline = performance.now() + 30_000
  while (latencies.length < total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  const elapsed = (performance.now() - started) / 1000
  await worker.stop()
  await store.close()
  return `${name.padEnd(8)} ${String(latencies.length).padStart(6)}/${total} ${(latencies.length / elapsed).toFixed(0).padStart(8)} ${percentile(latencies, 50).toFixed(1).padStart(8)} ${percentile(latencies, 99).toFixed(1).padStart(8)}  ${percentile(latencies, 99) < 250 ? 'MET' : 'NOT MET'}`
}

const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-webhooks-'))
try {
  console.log(`node ${process.version}, offered ${RATE} events/s for ${SECONDS}s, one endpoint on 127.0.0.1, worker polling every 100 ms`)
  console.log(`baseline: bare node:http POSTs (32 in flight): ${(await bareBaseline()).toFixed(0)} requests/s`)
  console.log('store    delivered  per s   p50 ms   p99 ms  (target p99 < 250 ms)')
  console.log(await run('memory', new MemoryStore()))
  console.log(await run('sqlite', new SqliteStore({ file: join(dir, 'bench.sqlite') })))
} finally {
  receiver.close()
  rmSync(dir, { recursive: true, force: true })
}
