/**
 * Two `cairn serve` processes on one `--data-dir` deliver webhooks to a prompt receiver and to one
 * that trickles a byte now and then and never finishes. The round that claims both records the
 * prompt delivery as soon as it is answered and cuts the trickler off at the attempt's deadline, so
 * the other host never re-claims the round and the prompt receiver gets its event exactly once —
 * even past the point where the old lease (the attempt's deadline + RECORDING_MARGIN_MS from the
 * round's start) ran out. The deployment shortens the deadline to ATTEMPT_SECONDS, so the test
 * waits out a 17 s lease instead of the default 30 s one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTricklingReceiver, type TricklingReceiver } from '../../adapters/system/trickling-receiver-test-support.js'
import { RECORDING_MARGIN_MS } from '../../core/webhooks/retry-schedule.js'
import { startReceiver } from '../http/webhook-receiver-test-support.js'
import { freePort, signInOverHttp, startServeProcess, type ServeProcess } from './serve-process-test-support.js'

const BASE_URL = 'http://cairn.webhook-two-hosts.test'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-webhook-two-hosts-'))
const configFile = join(dataDir, 'deployment.json')
/** The deployment's attempt deadline (`webhooks.attemptTimeoutSeconds`), instead of the default 15 s. */
const ATTEMPT_SECONDS = 2
writeFileSync(configFile, JSON.stringify({ businessAccounts: ['boss'], webhooks: { allowHttpLoopback: true, allowPrivateNetworks: true, attemptTimeoutSeconds: ATTEMPT_SECONDS } }))
const servers: Server[] = []
const tricklers: TricklingReceiver[] = []
const hosts: ServeProcess[] = []
afterAll(async () => {
  for (const host of hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL')
  await Promise.all(hosts.map((host) => host.exit))
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  for (const trickler of tricklers) await trickler.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const serve = async () => {
  const host = await startServeProcess(dataDir, BASE_URL, { CAIRN_CONFIG: configFile })
  hosts.push(host)
  return host
}

describe('webhooks with one trickling receiver across two cairn serve processes', () => {
  it('deliver to the prompt receiver exactly once, past the old lease', { timeout: 120_000 }, async () => {
    const [promptPort, tricklePort] = [await freePort(), await freePort()]
    // Enqueue both while neither receiver listens: their first attempts fail, so their retries fall due together.
    const first = await serve()
    const cookie = await signInOverHttp(first.url, BASE_URL, 'boss')
    const post = async <T>(path: string, body: unknown): Promise<T> =>
      (await (await fetch(`${first.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })).json()) as T
    type Created = { endpoint: { id: string }; secret: string }
    const prompt = await post<Created>('/api/developers/webhooks', { url: `http://127.0.0.1:${promptPort}/hook` })
    const slow = await post<Created>('/api/developers/webhooks', { url: `http://127.0.0.1:${tricklePort}/hook` })
    await post<unknown>(`/api/developers/webhooks/${prompt.endpoint.id}/test-event`, { eventType: 'creator.run.completed' })
    await post<unknown>(`/api/developers/webhooks/${slow.endpoint.id}/test-event`, { eventType: 'creator.run.completed' })
    first.child.kill('SIGKILL')
    await first.exit

    const receiver = await startReceiver(() => [prompt.secret], () => 204, promptPort)
    servers.push(receiver.server)
    const trickler = await startTricklingReceiver({ everyMs: 200, port: tricklePort })
    tricklers.push(trickler)
    await Promise.all([serve(), serve()])
    await expect.poll(() => receiver.received.length, { timeout: 30_000, interval: 100 }).toBe(1)
    await expect.poll(() => trickler.requests(), { timeout: 10_000, interval: 100 }).toBeGreaterThan(0)
    // Cut off at the deployment's deadline, well before the default 15 s one.
    await expect.poll(() => trickler.openConnections(), { timeout: ATTEMPT_SECONDS * 1000 + 3000, interval: 100 }).toBe(0)
    // Past the old lease of the round that claimed both (its start + deadline + margin), and then some.
    await new Promise((resolve) => setTimeout(resolve, ATTEMPT_SECONDS * 1000 + RECORDING_MARGIN_MS + 4000))
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]).toMatchObject({ verifiedWith: prompt.secret })
  })
})
