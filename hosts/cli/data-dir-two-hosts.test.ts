/**
 * Two `cairn serve` processes started at the same moment on one `--data-dir`: both must start (the
 * SQLite start-up waits for the other's lock), publish the same JWKS (one key file, one current
 * key), and keep every key across a restart.
 */
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServeProcess } from './serve-process-test-support.js'

const dataDir = mkdtempSync(join(tmpdir(), 'cairn-two-hosts-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const { child, url } = await startServeProcess(dataDir, 'http://cairn.two-hosts.test')
  return { child, url }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

const jwksOf = async (url: string) => ((await (await fetch(`${url}/api/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid)

describe('two cairn serve processes on one --data-dir', () => {
  it('both start, publish the same JWKS, and lose no key across a restart', async () => {
    const hosts = await Promise.all([startServer(), startServer()])
    try {
      const [a, b] = await Promise.all(hosts.map((host) => jwksOf(host.url)))
      expect(a!.length).toBeGreaterThan(0)
      expect(a).toEqual(b)
      expect(await jwksOf(hosts[1]!.url)).toEqual(a)
      await Promise.all(hosts.map((host) => stop(host.child)))
      const again = await startServer()
      try {
        expect(await jwksOf(again.url)).toEqual(a)
      } finally {
        await stop(again.child)
      }
    } finally {
      for (const host of hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL')
    }
  }, 60_000)
})
