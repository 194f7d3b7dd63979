/**
 * `cairn value issue --user <username> (--phi <Φ> | --usd <dollars>)`: the operator issues value
 * to a wallet, without writing code. Against storage (`--data-dir`, `--store`…, the operator is
 * whoever can open it) or a running server (`--server URL`, presenting the operator token from
 * `CAIRN_OPERATOR_TOKEN`, whose SHA-256 the deployment file names). Either way the issuance is one
 * ledger movement with its public event and receipt (docs/value.md).
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import * as E from 'fp-ts/lib/Either.js'
import { createCairn } from '../library/create-cairn.js'
import { selectAdapters } from '../library/select-adapters.js'
import { decodeOperatorIssue, operatorIssued, type OperatorIssued } from '../../core/value/index.js'
import { formatPhi } from '../../core/value/phi-price.js'
import { formatUsdDollars } from '../../core/value/amount.js'
import { loadDeploymentConfig } from './load-deployment-config.js'
import { readServeConfig } from './serve-config.js'

export const VALUE_USAGE = `Usage: cairn value issue --user NAME (--phi AMOUNT | --usd DOLLARS) [--key KEY] [--memo TEXT] [--json]
         storage:  [--data-dir DIR] [--store URI] [--blobs URI] [--key-file FILE] [--config FILE]
         or server: --server URL   (the operator token in CAIRN_OPERATOR_TOKEN)

Issues value to NAME's wallet as the operator: one ledger movement with its public event and receipt.
--phi takes Φ (at most six decimals), --usd dollars (at most two). --key makes a retry safe: the same
key issues once (a key is made up when omitted and printed). With --server, the deployment file of
that server must name the token's SHA-256 as operator.tokenSha256.`

type Env = Readonly<Record<string, string | undefined>>

/** Runs `cairn value …`; resolves to the exit code. */
export async function valueCommand(args: readonly string[], env: Env): Promise<number> {
  const [sub, ...rest] = args
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    console.log(VALUE_USAGE)
    return 0
  }
  if (sub !== 'issue') {
    console.error(`cairn value: ${sub === undefined ? 'a subcommand is required' : `unknown subcommand "${sub}"`}\n${VALUE_USAGE}`)
    return 2
  }
  let parsed
  try {
    parsed = parseIssueArgs(rest)
  } catch (error) {
    console.error(`cairn value issue: ${(error as Error).message}\n${VALUE_USAGE}`)
    return 2
  }
  const request = {
    username: parsed.user, ...(parsed.phi !== undefined ? { phi: parsed.phi } : {}), ...(parsed.usd !== undefined ? { usd: parsed.usd } : {}),
    idempotencyKey: parsed.key ?? `cli-${randomBytes(12).toString('base64url')}`, ...(parsed.memo !== undefined ? { memo: parsed.memo } : {}),
  }
  const outcome = parsed.server !== undefined ? await issueOverHttp(parsed.server, env, request) : await issueInStorage(parsed.storageArgs, env, request)
  if (!outcome.ok) {
    console.error(`cairn value issue: ${outcome.error}`)
    return outcome.usage ? 2 : 1
  }
  const issued = outcome.issued
  if (parsed.json) console.log(JSON.stringify(issued))
  else {
    const shown = issued.unit === 'phi' ? `${formatPhi(BigInt(issued.amount))} Φ` : `$${formatUsdDollars(BigInt(issued.amount))}`
    console.log(`${issued.replayed ? 'Already issued' : 'Issued'} ${shown} to ${issued.username}: entry ${issued.entryId}, public event ${issued.event.id} (log proof ${issued.event.receipt.log.inclusionPath}), key ${issued.idempotencyKey}`)
  }
  return 0
}

interface IssueArgs {
  readonly user: string
  readonly phi?: string
  readonly usd?: string
  readonly key?: string
  readonly memo?: string
  readonly json: boolean
  readonly server?: string
  /** Storage flags, handed to the same reader as `cairn serve`'s. */
  readonly storageArgs: string[]
}

const STORAGE_FLAGS = ['data-dir', 'store', 'blobs', 'key-file', 'config', 'base-url'] as const

function parseIssueArgs(args: readonly string[]): IssueArgs {
  const { values } = parseArgs({
    args: [...args],
    options: {
      user: { type: 'string' }, phi: { type: 'string' }, usd: { type: 'string' }, key: { type: 'string' }, memo: { type: 'string' },
      json: { type: 'boolean' }, server: { type: 'string' },
      ...Object.fromEntries(STORAGE_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
    },
    strict: true,
    allowPositionals: false,
  })
  const text = (name: string) => values[name as keyof typeof values] as string | undefined
  const user = text('user')
  if (user === undefined) throw new Error('--user is required')
  if ((text('phi') === undefined) === (text('usd') === undefined)) throw new Error('give exactly one of --phi and --usd')
  const storageArgs = STORAGE_FLAGS.flatMap((flag) => (text(flag) !== undefined ? [`--${flag}`, text(flag)!] : []))
  if (text('server') !== undefined && storageArgs.length > 0) throw new Error('--server issues through a running server; storage flags are for issuing without one')
  return {
    user, json: values.json === true, storageArgs,
    ...Object.fromEntries((['phi', 'usd', 'key', 'memo', 'server'] as const).flatMap((name) => (text(name) !== undefined ? [[name, text(name)]] : []))),
  }
}

type Outcome = { ok: true; issued: OperatorIssued } | { ok: false; error: string; usage?: boolean }

async function issueOverHttp(server: string, env: Env, request: object): Promise<Outcome> {
  const token = env['CAIRN_OPERATOR_TOKEN']
  if (!token) return { ok: false, error: 'CAIRN_OPERATOR_TOKEN must hold the operator token to issue through a server', usage: true }
  let response: Response
  try {
    response = await fetch(`${server.replace(/\/+$/, '')}/operator/value/issue`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(request),
    })
  } catch (error) {
    return { ok: false, error: `cannot reach ${server}: ${(error as Error).message}` }
  }
  const body = (await response.json().catch(() => ({ error: `the server answered ${response.status} without JSON` }))) as OperatorIssued | { error: string }
  return response.ok ? { ok: true, issued: body as OperatorIssued } : { ok: false, error: `${response.status}: ${(body as { error: string }).error}` }
}

async function issueInStorage(storageArgs: readonly string[], env: Env, request: { idempotencyKey: string }): Promise<Outcome> {
  let adapters: ReturnType<typeof selectAdapters>
  let config: ReturnType<typeof readServeConfig>
  let deployment: ReturnType<typeof loadDeploymentConfig>
  try {
    config = readServeConfig(storageArgs, env)
    if (config.storage.dataDir === undefined && config.storage.store === undefined) {
      return { ok: false, error: 'name the deployment\'s storage (--data-dir or --store) or a running server (--server)', usage: true }
    }
    deployment = loadDeploymentConfig(config.configFile)
    adapters = selectAdapters(config.storage)
  } catch (error) {
    return { ok: false, error: (error as Error).message, usage: true }
  }
  const { store, blobs, events, keys } = adapters
  // Quiet: this command's output is its one line; the library's logs are the server's business.
  const silent = { info: () => {}, warn: () => {}, error: () => {} }
  const cairn = createCairn({ baseUrl: config.baseUrl, deployment, store, blobs, events, keys, logger: silent, logError: () => {} })
  try {
    const decoded = decodeOperatorIssue(request, () => request.idempotencyKey)
    if (E.isLeft(decoded)) return { ok: false, error: decoded.left.message, usage: true }
    const issued = await cairn.issueValue(decoded.right)
    return E.isLeft(issued) ? { ok: false, error: issued.left.message } : { ok: true, issued: operatorIssued(decoded.right, issued.right) }
  } finally {
    await cairn.close()
    await adapters.close()
  }
}
