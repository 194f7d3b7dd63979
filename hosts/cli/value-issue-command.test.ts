/**
 * `cairn value issue` as an operator runs it: against the data dir of a running `cairn serve`, and
 * through that server with the operator token its deployment file names. Each issuance is a public
 * wallet ledger event; without the operator credential the route refuses and nothing is written.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../core/digest/sha256.js'
import { signInOverHttp, startServeProcess, type ServeProcess } from './serve-process-test-support.js'

const bin = fileURLToPath(new URL('./bin.ts', import.meta.url))
const BASE_URL = 'http://cairn.operator.test'
const OPERATOR_TOKEN = 'op_0123456789abcdefghijklmnopqrstuvwxyz'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-operator-data-'))
const configFile = join(dataDir, '..', `${dataDir.split('/').pop()}-deployment.json`)

let server: ServeProcess
let adaCookie: string
beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ operator: { tokenSha256: sha256Hex(OPERATOR_TOKEN) } }))
  server = await startServeProcess(dataDir, BASE_URL, { CAIRN_CONFIG: configFile })
  adaCookie = await signInOverHttp(server.url, BASE_URL, 'ada')
}, 60_000)
afterAll(async () => {
  server?.child.kill('SIGTERM')
  await server?.exit
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(configFile, { force: true })
})

const cairn = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', bin, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  )
const feed = async () => (await (await fetch(`${server.url}/api/wallet/ledger/public`)).json()) as { events: { kind: string; amountPhiMicro: string; toActor: string }[]; rollup: Record<string, string> }
const issueRoute = (headers: Record<string, string>, body: unknown = { username: 'ada', phi: '5' }) =>
  fetch(`${server.url}/operator/value/issue`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('cairn value issue', () => {
  it('issues Φ from the data dir a running server uses: one public event, and the same key issues once', async () => {
    const first = await cairn(['value', 'issue', '--user', 'ada', '--phi', '100', '--key', 'grant-1', '--data-dir', dataDir, '--config', configFile])
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Issued 100 Φ to ada: entry ent_\S+, public event wle_\S+ \(log proof \/log\/proof\/leaf\/[0-9a-f]{64}\), key grant-1\n$/) })
    const again = await cairn(['value', 'issue', '--user', 'ada', '--phi', '100', '--key', 'grant-1', '--data-dir', dataDir, '--json'])
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, replayed: true, username: 'ada', unit: 'phi', amount: '100000000', event: { kind: 'issuance' } })
    expect((await feed()).events).toMatchObject([{ kind: 'issuance', amountPhiMicro: '100000000', fromActor: 'cairn' }])
  }, 60_000)

  it('issues through the running server with the operator token the deployment file names', async () => {
    const issued = await cairn(['value', 'issue', '--user', 'ada', '--phi', '2.5', '--server', server.url, '--json'], { CAIRN_OPERATOR_TOKEN: OPERATOR_TOKEN })
    expect(issued.code).toBe(0)
    const body = JSON.parse(issued.stdout)
    expect(body).toMatchObject({ ok: true, replayed: false, amount: '2500000', event: { kind: 'issuance', amountPhiMicro: '2500000', receipt: { schema: 'cairn.wallet_ledger_receipt' } } })
    const events = (await feed()).events
    expect(events.at(-1)).toMatchObject({ id: body.event.id, toActor: events[0]!.toActor })
  }, 60_000)

  it('refuses issuance without the operator credential, writing nothing (attacks)', async () => {
    const before = await feed()
    const attempts = [
      await issueRoute({}),
      await issueRoute({ authorization: 'Bearer not-the-operator-token' }),
      await issueRoute({ authorization: `Bearer ${OPERATOR_TOKEN}x` }),
      await issueRoute({ cookie: adaCookie }), // a signed-in user is no operator
      await issueRoute({ authorization: `Basic ${Buffer.from(`operator:${OPERATOR_TOKEN}`).toString('base64')}` }),
    ]
    for (const response of attempts) {
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ ok: false, error: expect.stringMatching(/operator credential/) })
    }
    const cli = await cairn(['value', 'issue', '--user', 'ada', '--phi', '1', '--server', server.url], { CAIRN_OPERATOR_TOKEN: 'guessed' })
    expect(cli).toMatchObject({ code: 1, stderr: expect.stringContaining('401') })
    expect(await feed()).toEqual(before)
  }, 60_000)

  it('answers bad requests with a sentence and exit code 2, writing nothing', async () => {
    const before = await feed()
    const refused = await issueRoute({ authorization: `Bearer ${OPERATOR_TOKEN}` }, { username: 'ada', phi: '1', usd: '1' })
    expect(refused.status).toBe(400)
    const nobody = await issueRoute({ authorization: `Bearer ${OPERATOR_TOKEN}` }, { username: 'nobody', phi: '1' })
    expect(nobody.status).toBe(404)
    expect(await cairn(['value', 'issue', '--user', 'ada', '--phi', '1.0000001', '--data-dir', dataDir])).toMatchObject({ code: 2, stderr: expect.stringContaining('at most six decimals') })
    expect((await cairn(['value', 'issue', '--user', 'ada', '--phi', '1'])).stderr).toContain('--data-dir or --store')
    expect(await feed()).toEqual(before)
  }, 60_000)
})
