/**
 * Three `cairn serve` processes on one PostgreSQL database (a throwaway cluster this file starts),
 * as a team runs several stateless hosts behind a load balancer. They publish one JWKS; seals race on
 * the transparency log from all three and every one verifies on another host; staged executions
 * of a runtime application race on one participant head across all three (one commit per head version); transfers
 * in and out of one hot wallet race across all three, each retried with its idempotency key on the
 * next host when an answer is lost; one host is killed with SIGKILL mid-load and the database is
 * restarted mid-load. Afterwards value is conserved, no wallet is negative, every acknowledged
 * transfer is there exactly once, the surviving hosts serve again without a restart (readiness went
 * 503 while the database was away), and live updates reach subscribers on every host again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore } from '../../adapters/memory/index.js'
import { PostgresStore } from '../../adapters/postgres/index.js'
import { clusterOfThisFile, describePostgres } from '../../adapters/postgres/testing/cluster-per-file.js'
import { CryptoEntropy, SystemClock } from '../../adapters/system/index.js'
import { pngFile } from '../../conformance/proof/payloads.js'
import { verifyChain } from '../../core/digest/chain.js'
import { LOG_LEAF_STREAM } from '../../core/tlog/sequence.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import { issueValue, trialBalance } from '../../core/value/index.js'
import { VALUE_ENTRIES, type LedgerEntry } from '../../core/value/ledger-entry.js'
import { raceExecutionsAcrossHosts, racingApplication } from './racing-executions-test-support.js'
import { personWithToken, signInOverHttp, startServeProcess, type ServeProcess } from './serve-process-test-support.js'

const BASE_URL = 'http://cairn.several-hosts.test'
const PASSWORD = 'not-in-any-log'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-pg-hosts-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const configFile = join(dataDir, 'deployment.json')
writeFileSync(configFile, JSON.stringify({ clients: [racingApplication] }))

const jwksOf = async (url: string) => ((await (await fetch(`${url}/api/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid).sort()
const readiness = async (url: string) => (await fetch(`${url}/readyz`)).status

/** Twin updates of `ada` as one host's WebSocket subscriber sees them. */
async function subscribeToAda(url: string): Promise<{ updates: string[]; close: () => void }> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/world/live`)
  const updates: string[] = []
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as { type: string; data?: { messageId?: string } }
    if (frame.type === 'update' && frame.data?.messageId) updates.push(frame.data.messageId)
  })
  await new Promise<void>((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject)))
  socket.send(JSON.stringify({ type: 'subscribe', topic: 'twin:ada' }))
  return { updates, close: () => socket.close() }
}

const postToAda = async (url: string, text: string) =>
  ((await (await fetch(`${url}/api/world/profile/ada`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId: 'visitor-hosts', text }) })).json()) as {
    thread: { messageId: string }
  }).thread.messageId

describePostgres('three cairn serve processes on one PostgreSQL database', () => {
  it('seal on one log, commit one raced execution per head version, and keep value conserved and every acknowledged transfer exactly once through a SIGKILLed host and a database restart', async () => {
    const cluster = await clusterOfThisFile()
    const database = (await cluster.createDatabase('hosts')).replace('cairn@', `cairn:${PASSWORD}@`)
    const env = { CAIRN_STORE: database, CAIRN_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64url'), CAIRN_CONFIG: configFile }
    const output: string[] = []
    const start = async () => {
      const host = await startServeProcess(dataDir, BASE_URL, env)
      output.push(host.firstLine)
      host.child.stdout!.on('data', (chunk) => output.push(String(chunk)))
      host.child.stderr!.on('data', (chunk) => output.push(String(chunk)))
      return host
    }
    const hosts: ServeProcess[] = await Promise.all([start(), start(), start()])
    const store = new PostgresStore({ connectionString: database })
    const deps: CoreDeps = {
      clock: new SystemClock(), entropy: new CryptoEntropy(), store, blobs: new MemoryBlobStore(), events: new MemoryEventBus(), keys: new MemoryKeyStore(),
      config: { baseUrl: BASE_URL, deployment: {} },
    }
    try {
      expect(hosts[0]!.firstLine).toContain('store=postgres blobs=fs keys=store')
      const jwks = await Promise.all(hosts.map((host) => jwksOf(host.url)))
      expect(jwks[0]!.length).toBeGreaterThan(0)
      expect(jwks[1]).toEqual(jwks[0])
      expect(jwks[2]).toEqual(jwks[0])

      // Seals racing on the transparency log from all three hosts: each answered, each verifying on
      // another host, and the log's leaves one chain without a gap.
      const sealForm = (n: number) => {
        const body = new FormData()
        body.append('file', new Blob([pngFile([new TextEncoder().encode(`host race ${n}`)]) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), `race-${n}.png`)
        return body
      }
      const sealed = await Promise.all(
        Array.from({ length: 12 }, async (_, n) => {
          const response = await fetch(`${hosts[n % 3]!.url}/api/document-seal`, { method: 'POST', body: sealForm(n), headers: { accept: 'application/octet-stream' } })
          expect(response.status).toBe(200)
          return new Uint8Array(await response.arrayBuffer())
        }),
      )
      for (const [n, bytes] of sealed.entries()) {
        const body = new FormData()
        body.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }), `race-${n}.png`)
        const verdict = await fetch(`${hosts[(n + 1) % 3]!.url}/api/document-verify`, { method: 'POST', body })
        expect(await verdict.json()).toMatchObject({ ok: true, errors: [] })
      }
      const leaves = (await store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items
      expect(leaves.map((leaf) => leaf.sequence)).toEqual(leaves.map((_, i) => i + 1))
      expect(verifyChain(null, leaves)).toBe(true)

      // Staged executions racing on one participant head across the hosts: one commit per head version.
      await raceExecutionsAcrossHosts(hosts.map((host) => host.url), BASE_URL)

      const hot = await personWithToken(hosts[0]!.url, BASE_URL, 'hot')
      const others = await Promise.all([1, 2, 3, 4].map((i) => personWithToken(hosts[i % 3]!.url, BASE_URL, `member${i}`)))
      await store.declare(collections)
      for (const person of [hot, ...others]) {
        expect(E.isRight(await issueValue(deps, { userId: person.userId, unit: 'phi', amount: '100000', idempotencyKey: `seed-${person.userId}` }))).toBe(true)
      }
      await signInOverHttp(hosts[0]!.url, BASE_URL, 'ada')

      const alive = new Set([0, 1, 2])
      const acknowledged = new Map<string, string>() // idempotency key → transferId
      let sent = 0
      let stop = false
      /** One transfer, retried with the same idempotency key on the next host until some host answers. */
      const transfer = async (n: number) => {
        const other = others[n % others.length]!
        const [from, to] = n % 2 === 0 ? [hot, other] : [other, hot]
        const key = `load-${n}`
        for (let attempt = 0; attempt < 200; attempt += 1) {
          const host = hosts[[...alive][(n + attempt) % alive.size]!]!
          try {
            const response = await fetch(`${host.url}/api/connect/transfers`, {
              method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
              body: JSON.stringify({ recipientUserId: to.userId, unit: { currency: 'phi', amount: String(1 + (n % 13)) }, idempotencyKey: key }),
            })
            const body = (await response.json()) as { transferId?: string }
            if (response.status === 200 && body.transferId) {
              const earlier = acknowledged.get(key)
              if (earlier !== undefined) expect(body.transferId).toBe(earlier)
              acknowledged.set(key, body.transferId)
              return
            }
            expect(response.status).toBeGreaterThanOrEqual(500) // the database is away: try again
          } catch {
            // That host died under the request, or the database took it down: try the next one.
          }
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        throw new Error(`Transfer ${key} never got through`)
      }
      const workers = Array.from({ length: 9 }, async () => {
        while (!stop) await transfer(sent++)
      })
      const acknowledgedAtLeast = async (count: number) => {
        while (acknowledged.size < count) await new Promise((resolve) => setTimeout(resolve, 20))
      }

      await acknowledgedAtLeast(20)
      alive.delete(2)
      hosts[2]!.child.kill('SIGKILL')
      await hosts[2]!.exit
      await acknowledgedAtLeast(40)
      await cluster.stop('immediate')
      expect(await readiness(hosts[0]!.url)).toBe(503)
      await new Promise((resolve) => setTimeout(resolve, 300))
      await cluster.start()
      const beforeRecovery = acknowledged.size
      await acknowledgedAtLeast(beforeRecovery + 20)
      stop = true
      await Promise.all(workers)

      // The survivors serve again without a restart, and a reply posted to one reaches the other's subscriber.
      const survivors = hosts.slice(0, 2)
      for (const host of survivors) expect(await readiness(host.url)).toBe(200)
      const subscribers = await Promise.all(survivors.map((host) => subscribeToAda(host.url)))
      await new Promise((resolve) => setTimeout(resolve, 200))
      const messageId = await postToAda(hosts[1]!.url, 'Hello after the restart')
      await expect.poll(() => subscribers.map((subscriber) => subscriber.updates.includes(messageId)), { timeout: 10_000 }).toEqual([true, true])
      subscribers.forEach((subscriber) => subscriber.close())
      const trial = await trialBalance(deps)
      expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
      expect(trial.negative).toEqual([])
      const entries: LedgerEntry[] = []
      for (let after: string | undefined; ; ) {
        const page = await store.query(VALUE_ENTRIES, { index: 'byCreatedAt', limit: 1000, ...(after ? { after } : {}) })
        entries.push(...page.items.map((item) => item.value as unknown as LedgerEntry))
        if (page.nextCursor === null) break
        after = page.nextCursor
      }
      const transfers = entries.filter((entry) => entry.kind === 'transfer')
      const byKey = new Map<string, number>()
      for (const entry of transfers) byKey.set(entry.idempotencyKey!, (byKey.get(entry.idempotencyKey!) ?? 0) + 1)
      expect([...byKey.values()].filter((count) => count > 1)).toEqual([])
      for (const [key, transferId] of acknowledged) expect(transfers.find((entry) => entry.idempotencyKey === key)?.entryId).toBe(transferId)
      expect(output.join('\n')).not.toContain(PASSWORD)
    } finally {
      for (const host of hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL')
      await store.close()
    }
  }, 180_000)
})
