/**
 * Journey 6, an operator: serves with a metrics port (Prometheus text on a listener of its own,
 * never on the API's), funds a wallet with `cairn value issue --server`, and watches a burst of
 * transfers share ledger commits and the transparency log's checkpoint catch up with the leaves
 * that movements and seals sequence. Over HTTP and the CLI only, on `cairn serve --data-dir`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pngFile } from '../conformance/proof/payloads.js'
import { sha256Hex } from '../core/digest/sha256.js'
import { freeLoopbackPort } from '../hosts/http/free-port-test-support.js'
import { agentToken, call, phiBalance, runCli, signIn, startJourneyServer, type JourneyServer } from './journey-server.js'

const OPERATOR_TOKEN = 'op_journey_operator_token_0123456789abcdef'
const PHI = 1_000_000n
const BURST = 32

let server: JourneyServer
let metricsUrl: string
beforeAll(async () => {
  const metricsPort = await freeLoopbackPort()
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
  server = await startJourneyServer({ operator: { tokenSha256: sha256Hex(OPERATOR_TOKEN) } }, { CAIRN_METRICS_PORT: String(metricsPort) })
}, 60_000)
afterAll(async () => server?.stop())

/** One sample of the scrape, by its name and labels as written (`name{labels}`); NaN when absent. */
async function scrape(): Promise<(sample: string) => number> {
  const response = await fetch(metricsUrl)
  expect(response.status).toBe(200)
  const text = await response.text()
  const samples = new Map(text.split('\n').filter((line) => line && !line.startsWith('#')).map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]))
  return (sample) => samples.get(sample) ?? Number.NaN
}

/** Scrapes until the checkpoint covers every sequenced leaf (each host integrates every 200 ms). */
async function integrated(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const sample = await scrape()
    if (sample('cairn_log_integrated_leaves') === sample('cairn_log_sequenced_leaves')) return sample('cairn_log_integrated_leaves')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('The checkpoint never caught up with the sequenced leaves')
}

describe('journey 6: an operator watches a deployment batch movements and integrate its log', () => {
  it('metrics port → fund → a burst of transfers in few commits → seals → the checkpoint catches up', async () => {
    // Metrics answer on their own port only: the API's listener has no /metrics.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
    const before = await scrape()
    expect(before('cairn_ledger_movements_per_commit_count')).toBe(0)

    const [ada, bob] = [await signIn(server, 'ada'), await signIn(server, 'bob')]
    const issued = await runCli(['value', 'issue', '--user', 'ada', '--phi', '100', '--key', 'ops-fund', '--server', server.url], { CAIRN_OPERATOR_TOKEN: OPERATOR_TOKEN })
    expect(issued.code).toBe(0)
    const adaToken = await agentToken(server, ada, ['cairn:wallet.transfer', 'cairn:wallet.read'])

    // A program keeps its connections open (HTTP keep-alive), so its next burst reaches the server
    // at once, not one TCP handshake after another.
    await Promise.all(Array.from({ length: BURST }, () => phiBalance(server, adaToken)))
    // A burst: every transfer lands, and they share ledger commits (group commit), one entry each.
    const sent = await Promise.all(Array.from({ length: BURST }, (_, i) =>
      call(server, 'POST', '/api/connect/transfers', { token: adaToken, body: { recipientUserId: bob.userId, unit: { currency: 'phi', amount: '1' }, idempotencyKey: `burst-${i}` } })))
    expect(sent.map((answer) => answer.status)).toEqual(Array(BURST).fill(200))
    expect(await phiBalance(server, adaToken)).toBe(100n * PHI - BigInt(BURST)) // amounts are in µΦ
    const afterBurst = await scrape()
    expect(afterBurst('cairn_ledger_movements_per_commit_sum')).toBe(BURST + 1)
    // Fewer commits than movements: some transfers were decided together and written by one commit.
    expect(afterBurst('cairn_ledger_movements_per_commit_count')).toBeLessThan(BURST + 1)
    expect(afterBurst('cairn_store_commit_duration_seconds_count{outcome="committed"}')).toBeGreaterThan(0)

    // Every movement sequenced a log leaf; once integrated, a seal adds its own and the checkpoint follows.
    const size = await integrated()
    expect(size).toBeGreaterThanOrEqual(BURST + 1)
    const form = new FormData()
    form.append('file', new Blob([pngFile([new TextEncoder().encode('an operator checks the log')]) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'ops.png')
    const sealing = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie: ada.cookie } })
    expect(sealing.status).toBe(200)
    expect((await scrape())('cairn_log_sequenced_leaves')).toBeGreaterThan(size)
    expect(await integrated()).toBeGreaterThan(size)
  })
})
