/** The real `cairn` bin as a user runs it: starts, logs its URL, serves, stops on SIGTERM. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
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

  it('exits 2 with usage on an unknown command', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'launch'], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    const [code] = (await once(child, 'exit')) as [number]
    expect(code).toBe(2)
    expect(stderr).toContain('Usage: cairn serve')
  })
})
