/** The real `cairn` bin as a user runs it: starts, logs its URL, serves, stops on SIGTERM; help, version and start-up failures in one line. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'

const bin = fileURLToPath(new URL('./bin.ts', import.meta.url))

describe('cairn serve', () => {
  it('listens, logs a JSON line with its URL, serves the contract and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CAIRN_BASE_URL: 'http://cairn.test' } })
    const lines = createInterface({ input: child.stdout! })
    const [first] = (await once(lines, 'line')) as [string]
    // Logs are JSON lines (pino): the first one says where the server listens.
    const started = JSON.parse(first) as { msg: string; url: string; level: number }
    expect(started.msg).toMatch(/^Cairn listening on http:\/\/127\.0\.0\.1:\d+ /)
    const url = started.url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const response = await fetch(`${url}/openapi.json`)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { servers: unknown }).servers).toEqual([{ url: 'http://cairn.test' }])
    const rest: string[] = []
    lines.on('line', (line) => rest.push(line))
    child.kill('SIGTERM')
    const [code] = (await once(child, 'exit')) as [number]
    expect(code).toBe(0)
    expect(rest.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('Cairn stopped')
  })

  it('says an unknown command in one line and where the commands are, not the whole usage', async () => {
    const { code, stderr } = await run(['launch'])
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toEqual(['cairn: unknown command "launch"', 'Run "cairn help" for usage.'])
  })

  it('lists its commands with help, prints its version, and refuses a bad flag in one line', async () => {
    const help = await run(['help'])
    expect(help.code).toBe(0)
    for (const command of ['serve', 'verify', 'help', '--version']) expect(help.stdout).toContain(`  ${command}`)
    const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: `cairn ${manifest.version}\n` })
    const bad = await run(['serve', '--prot', '1'])
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^cairn: .*--prot/), 'Run "cairn serve --help" for usage.'])
  }, 90_000)

  it('advertises the port it really listens on with --port 0, logs each request at debug, and warns that memory forgets', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CAIRN_BASE_URL: '', CAIRN_LOG_LEVEL: 'debug' } })
    const lines = createInterface({ input: child.stdout! })
    const seen: { msg: string; level: number; url?: string; clients?: number }[] = []
    lines.on('line', (line) => seen.push(JSON.parse(line) as (typeof seen)[number]))
    while (seen.length < 2) await once(lines, 'line')
    const started = seen[0]!
    expect(started.msg).toMatch(/^Cairn listening on http:\/\/127\.0\.0\.1:\d+ \(base URL http:\/\/127\.0\.0\.1:\d+, store=memory blobs=memory; 0 OAuth clients, 0 Business accounts configured\)$/)
    expect(seen[1]).toMatchObject({ level: 40, msg: expect.stringContaining('Storage is in memory') })
    const document = (await (await fetch(`${started.url}/openapi.json?code=secret`)).json()) as { servers: { url: string }[] }
    expect(document.servers).toEqual([{ url: started.url }])
    const issuer = (await (await fetch(`${started.url}/.well-known/openid-configuration`)).json()) as { issuer: string }
    expect(issuer.issuer).toBe(started.url)
    while (!seen.some((line) => line.msg.startsWith('GET /.well-known/openid-configuration 200'))) await once(lines, 'line')
    expect(seen.find((line) => line.msg.startsWith('GET /openapi.json 200'))).toMatchObject({ level: 20 })
    expect(JSON.stringify(seen)).not.toContain('secret')
    child.kill('SIGTERM')
    await once(child, 'exit')
  }, 60_000)

  it('says a port in use in one cairn: line, without a stack', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as AddressInfo).port
    try {
      const { code, stderr } = await run(['serve', '--port', String(port)])
      expect(code).toBe(1)
      expect(stderr.trim()).toBe(`cairn: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); stop the other process or choose another with --port (0 picks a free one)`)
    } finally {
      blocker.close()
    }
  }, 60_000)
})

async function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const [code] = (await once(child, 'exit')) as [number]
  return { code, stdout, stderr }
}
