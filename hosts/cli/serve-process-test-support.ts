/**
 * Test support: `cairn serve --data-dir` as a real child process, the way a self-hoster runs it,
 * for the tests that kill it, restart it or run two of it on one directory.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createCairnClient, loadOrCreateIdKey, signIn, unwrap } from '../../client/index.js'

const bin = fileURLToPath(new URL('./bin.ts', import.meta.url))

export interface ServeProcess {
  readonly child: ChildProcess
  /** The URL from the first line the server prints. */
  readonly url: string
  /** That first line (it names the storage chosen). */
  readonly firstLine: string
  /** Settles when the process exits, listened for from the start: a killed process may be gone before anyone asks. */
  readonly exit: Promise<unknown>
}

/** @example const { url, child } = await startServeProcess(dataDir, 'http://cairn.test') */
export async function startServeProcess(dataDir: string, baseUrl: string, env: Readonly<Record<string, string>> = {}, options: { port?: number } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', String(options.port ?? 0), '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, CAIRN_BASE_URL: baseUrl },
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exit = once(child, 'exit')
  const early = exit.then(([code]) => Promise.reject(new Error(`cairn serve exited with ${code} before listening: ${stderr}`)))
  early.catch(() => {})
  const [firstLine] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), early])) as [string]
  const url = /listening on (http:\/\/\S+)/.exec(firstLine)?.[1]
  if (!url) throw new Error(`unexpected first line: ${firstLine}`)
  return { child, url, firstLine, exit }
}

/**
 * Signs a new person in over HTTP with a fresh ID key, as a device would (cairn/client: a
 * non-extractable WebCrypto key, the ID proof for `baseUrl`, sent to the server at `url`);
 * answers their session cookie.
 */
export async function signInOverHttp(url: string, baseUrl: string, username: string): Promise<string> {
  const client = createCairnClient({ baseUrl, fetch: (request) => fetch(new Request(`${url}${request.url.slice(baseUrl.replace(/\/+$/u, '').length)}`, request)) })
  unwrap(await signIn(client, await loadOrCreateIdKey(), { username, displayName: username, localUid: `device-${username}` }))
  return `cairn_session=${client.credentials.session}`
}

/** A loopback port nothing listens on yet (taken, then given back). */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Signs a new person in and answers their user id and an agent token with the wallet scopes. */
export async function personWithToken(url: string, baseUrl: string, username: string): Promise<{ userId: string; token: string }> {
  const cookie = await signInOverHttp(url, baseUrl, username)
  const agent = await fetch(`${url}/api/oidc/agent-tokens`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ clientId: 'durability', scopes: ['cairn:wallet.read', 'cairn:wallet.transfer'] }),
  })
  const { accessToken } = (await agent.json()) as { accessToken: string }
  const wallet = (await (await fetch(`${url}/api/connect/wallet/me`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as { wallet: { userId: string } }
  return { userId: wallet.wallet.userId, token: accessToken }
}
