/**
 * The server of `bench:ledger-http`, in its own process so the load generator does not share its
 * event loop: a Cairn on the store named by argv[2] (`sqlite`: a file, synchronous=FULL;
 * `memory`) with metrics on, WALLETS funded users and a bearer access token each
 * (`cairn:wallet.transfer`). Prints its URL, then the users as one JSON line. Answers lines on its
 * stdin: `cpu` (its CPU time so far, µs), `batches` (ledger entries and committed commits so far,
 * from the metrics), `inprocess <seconds> <callers>` (transfers through `cairn.call` from that many
 * concurrent loops, the HTTP layer removed: transfers/s), `trial` (`conserved` or `VIOLATED`).
 */
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import * as E from 'fp-ts/lib/Either.js'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { makeTempDir } from '../conformance/support/temp-dir.js'
import { createValueUser } from '../conformance/support/value-users.js'
import { issueValue, trialBalance } from '../core/value/index.js'
import { createMetrics } from '../hosts/http/metrics.js'
import { startHttpServer } from '../hosts/http/start-http-server.js'
import { resolveDeps } from '../hosts/library/compose.js'
import { createCairn } from '../hosts/library/create-cairn.js'
import { bearerToken } from './authenticated-read.js'

export const WALLETS = 64
export const CLIENT_ID = 'bench'

export interface BenchUser {
  readonly userId: string
  readonly token: string
}

const kind = process.argv[2]
const dir = await makeTempDir('cairn-bench-ledger-http-')
const store = kind === 'sqlite' ? new SqliteStore({ file: join(dir.path, 'ledger.sqlite'), synchronous: 'FULL' }) : undefined
const metrics = createMetrics({ defaultMetrics: false })
const cairn = createCairn({
  baseUrl: 'http://127.0.0.1',
  ...(store ? { store } : {}),
  metrics,
  deployment: { clients: [{ clientId: CLIENT_ID, redirectUris: ['https://rp.example/callback'], firstParty: true }], businessAccounts: [] },
})
await cairn.ready
const deps = resolveDeps(cairn.container)

const users: BenchUser[] = []
for (let i = 0; i < WALLETS; i++) {
  const userId = await createValueUser(deps.store, `bench${i}`)
  const issued = await issueValue(deps, { userId, unit: 'phi', amount: String(10n ** 14n), idempotencyKey: `seed-${userId}` })
  if (E.isLeft(issued)) throw new Error(issued.left.message)
  users.push({ userId, token: await bearerToken(deps, userId, { clientId: CLIENT_ID, scopes: ['cairn:wallet.transfer'], lifetimeSeconds: 3600 }) })
}

const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
console.log(server.url)
console.log(JSON.stringify(users))

/** Sum and count of `cairn_ledger_movements_per_commit` so far. */
async function batches(): Promise<string> {
  const body = (await metrics.scrape()).body
  const sample = (name: string) => new RegExp(`^${name} (\\S+)$`, 'm').exec(body)?.[1] ?? '0'
  return `${sample('cairn_ledger_movements_per_commit_sum')} ${sample('cairn_ledger_movements_per_commit_count')}`
}

let inProcessKey = 0
async function inProcess(seconds: number, callers: number): Promise<number> {
  const end = performance.now() + seconds * 1000
  let done = 0
  await Promise.all(Array.from({ length: callers }, async (_, caller) => {
    while (performance.now() < end) {
      const n = inProcessKey++
      const from = users[(caller + n) % WALLETS]!
      const to = users[(caller + n + 1) % WALLETS]!
      const answer = await cairn.call('createTransfer', { credentials: { bearerToken: from.token }, body: { recipientUserId: to.userId, unit: { currency: 'phi', amount: '1' }, idempotencyKey: `in-${n}` } })
      if (answer._tag === 'Right') done++
    }
  }))
  return done / seconds
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.trim().split(' ')
  if (command === 'cpu') {
    const used = process.cpuUsage()
    console.log(used.user + used.system)
  } else if (command === 'batches') {
    console.log(await batches())
  } else if (command === 'inprocess') {
    console.log(await inProcess(Number(args[0]), Number(args[1])))
  } else if (command === 'trial') {
    const trial = await trialBalance(deps)
    console.log(trial.conserved ? 'conserved' : 'VIOLATED')
  }
}
await server.close()
await cairn.close()
await dir.remove()
