/**
 * Two `cairn serve` processes on one `--data-dir`, as a self-hoster scales out: a visitor message
 * posted to one host reaches WebSocket subscribers on both (docs/world.md: "every host sharing the
 * store"), through the SQLite file they share.
 */
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { signInOverHttp, startServeProcess } from './serve-process-test-support.js'

const BASE_URL = 'http://cairn.live-two-hosts.test'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-live-two-hosts-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

interface Frame { type: string; topic?: string; data?: Record<string, unknown> }

async function subscribe(url: string, topic: string): Promise<{ socket: WebSocket; frames: Frame[] }> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/world/live`)
  const frames: Frame[] = []
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame))
  await new Promise<void>((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject)))
  socket.send(JSON.stringify({ type: 'subscribe', topic }))
  await expect.poll(() => frames.map((frame) => frame.type)).toContain('subscribed')
  return { socket, frames }
}

const post = (url: string, text: string) =>
  fetch(`${url}/api/world/profile/ada`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId: 'visitor-two-hosts', text }) })
    .then(async (response) => (await response.json()) as { thread: { messageId: string } })

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

describe('live updates across two cairn serve processes on one --data-dir', () => {
  it('reach subscribers on the other host, in order, whichever host the message was posted to', async () => {
    const [a, b] = await Promise.all([startServeProcess(dataDir, BASE_URL), startServeProcess(dataDir, BASE_URL)])
    try {
      await signInOverHttp(a.url, BASE_URL, 'ada')
      const onB = await subscribe(b.url, 'twin:ada')
      const onA = await subscribe(a.url, 'twin:ada')
      const posted = [await post(a.url, 'one from A'), await post(b.url, 'two from B'), await post(a.url, 'three from A')]
      const ids = posted.map((answer) => answer.thread.messageId)
      const updates = (frames: Frame[]) => frames.filter((frame) => frame.type === 'update').map((frame) => frame.data?.['messageId'])
      await expect.poll(() => updates(onB.frames), { timeout: 10_000 }).toEqual(ids)
      await expect.poll(() => updates(onA.frames), { timeout: 10_000 }).toEqual(ids)
      onA.socket.close()
      onB.socket.close()
    } finally {
      await Promise.all([stop(a.child), stop(b.child)])
    }
  }, 60_000)
})
