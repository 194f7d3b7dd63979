/**
 * What every journey stands on: `cairn serve` as a child process on a temporary data dir with a
 * deployment file, reached over HTTP only, and the CLI run as a person runs it. People sign in the
 * way a device does (an ID key of their own signs the ID-continue message), then act with the
 * session cookie a browser keeps or an agent token they mint for a program.
 */
import { execFile } from 'node:child_process'
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import type { DeploymentConfig } from '../core/config/deployment-config.js'
import { signIdContinueRequest } from '../core/identity/sign-id-proof.js'
import { startServeProcess, type ServeProcess } from '../hosts/cli/serve-process-test-support.js'
import { applicationTokenOverHttp, type ConfidentialApplication } from '../hosts/cli/id-key-person-test-support.js'
import { freeLoopbackPort } from '../hosts/http/free-port-test-support.js'
import { expectReceiptsHold } from './public-ledger-receipts.js'

const bin = fileURLToPath(new URL('../hosts/cli/bin.ts', import.meta.url))

export interface JourneyServer {
  /** The base URL: where a browser and every client reach the server. */
  readonly url: string
  /** A scratch directory for files people keep (sealed bytes, trust files). */
  readonly dir: string
  readonly dataDir: string
  readonly configFile: string
  stop(): Promise<void>
}

/** @example const server = await startJourneyServer({ payments: { phiPerUsd: '100' } }) */
export async function startJourneyServer(deployment: DeploymentConfig, env: Readonly<Record<string, string>> = {}): Promise<JourneyServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-journey-'))
  const dataDir = join(dir, 'data')
  const configFile = join(dir, 'cairn.json')
  writeFileSync(configFile, JSON.stringify(deployment))
  // The base URL names the port, so pages and checkout links a browser follows lead back here.
  const port = await freeLoopbackPort()
  const url = `http://127.0.0.1:${port}`
  const process: ServeProcess = await startServeProcess(dataDir, url, { CAIRN_CONFIG: configFile, ...env }, { port })
  return {
    url, dir, dataDir, configFile,
    async stop() {
      process.child.kill('SIGTERM')
      await process.exit
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The `cairn` CLI in a child process, as a person types it. */
export async function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', bin, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  )
}

export interface Person {
  readonly username: string
  /** The session cookie a browser would keep. */
  readonly cookie: string
  /** The ID key their device holds (Ed25519). */
  readonly privateKey: KeyObject
  readonly userId: string
}

/** Signs a person in (a new username signs up) with an ID key of their own, as a device does. */
export async function signIn(server: JourneyServer, username: string): Promise<Person> {
  const { privateKey } = generateKeyPairSync('ed25519')
  const body = signIdContinueRequest({ username, displayName: username, localUid: `device-${username}` }, {
    privateKey, challenge: randomBytes(24), createdAt: new Date().toISOString(), audience: server.url,
  })
  const response = await fetch(`${server.url}/api/auth/cairn-id/continue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(200)
  const answer = (await response.json()) as { session: { uid: string } }
  return { username, cookie: /cairn_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')![0], privateKey, userId: answer.session.uid }
}

/** An agent token the person mints for a program (`POST /api/oidc/agent-tokens`). */
export async function agentToken(server: JourneyServer, person: Person, scopes: readonly string[], clientId = `journey-${person.username}`): Promise<string> {
  const response = await fetch(`${server.url}/api/oidc/agent-tokens`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: person.cookie }, body: JSON.stringify({ clientId, scopes }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { accessToken: string }).accessToken
}

export { registeredApplication, type ConfidentialApplication as JourneyApplication } from '../hosts/cli/id-key-person-test-support.js'

/** The access token `app` obtains for `person` through its own code + PKCE flow (`applicationTokenOverHttp`). */
export const applicationToken = (server: JourneyServer, person: Person, scopes: readonly string[], app: ConfidentialApplication): Promise<string> =>
  applicationTokenOverHttp(server.url, person, scopes, app)

/** A JSON request; answers the status and the parsed body. */
export async function call(server: JourneyServer, method: string, path: string, options: { body?: unknown; cookie?: string; token?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.cookie) headers.cookie = options.cookie
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const response = await fetch(`${server.url}${path}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
}

/** The whole public wallet ledger, page by page, and its rollup. */
export async function publicWalletLedger(server: JourneyServer): Promise<{ events: any[]; rollup: Record<string, string> }> {
  const events: any[] = []
  let cursor: string | null = null
  for (;;) {
    const page = await call(server, 'GET', `/api/wallet/ledger/public?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    expect(page.status).toBe(200)
    events.push(...page.body.events)
    if (page.body.events.length === 0 || page.body.nextCursor === null || page.body.nextCursor === cursor) return { events, rollup: page.body.rollup }
    cursor = page.body.nextCursor
  }
}

/**
 * Conservation as anyone can check it from outside: the Φ in these wallets equals the Φ that
 * entered (issuance and checkout events) minus what left for usage, the rollup is the sum of the
 * events, and every event's receipt holds (public-ledger-receipts.ts). `wallets` are the balances
 * people read with their tokens.
 */
export async function expectConserved(server: JourneyServer, wallets: readonly bigint[], spentOnUsage = 0n): Promise<void> {
  const { events, rollup } = await publicWalletLedger(server)
  await expectReceiptsHold(server, events)
  const entered = events.filter((event) => event.kind === 'issuance' || event.kind === 'checkout').reduce((sum, event) => sum + BigInt(event.amountPhiMicro), 0n)
  expect(wallets.reduce((sum, balance) => sum + balance, 0n)).toBe(entered - spentOnUsage)
  const credits = events.filter((event) => event.kind !== 'note_mint').reduce((sum, event) => sum + BigInt(event.amountPhiMicro), 0n)
  const debits = events.filter((event) => event.kind === 'transfer' || event.kind === 'note_mint').reduce((sum, event) => sum + BigInt(event.amountPhiMicro), 0n)
  expect(rollup).toMatchObject({ totalPhiCreditMicro: String(credits), totalPhiDebitMicro: String(debits) })
}

/** The Φ balance a person reads with a `cairn:wallet.read` token. */
export async function phiBalance(server: JourneyServer, token: string): Promise<bigint> {
  const wallet = await call(server, 'GET', '/api/connect/wallet/me', { token })
  expect(wallet.status).toBe(200)
  return BigInt(wallet.body.wallet.balancePhiMicro)
}
