/**
 * Streamed Live Twin replies over a listening HTTP server: server-sent `delta` events as the Twin
 * writes, then `done` with the stored thread; a client that disconnects mid-stream aborts the
 * generation and nothing is stored; refusals come before any event, as plain JSON.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { DeterministicTextGenerator } from '../../adapters/memory/index.js'
import { WORLD_MESSAGES } from '../../core/world/index.js'
import type { TextChunk, TextGenerationRequest, TextGenerator } from '../../ports/text-generator.js'
import { signInOverHttp } from '../cli/serve-process-test-support.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { startHttpServer } from './start-http-server.js'

const BASE_URL = 'http://cairn.world-stream.test'
const opened: { cairn: Cairn; close: () => Promise<void> }[] = []
afterEach(async () => {
  for (const { cairn, close } of opened.splice(0)) {
    await close()
    await cairn.close()
  }
})

/** Writes one word, then waits until aborted: the only way it ends is a client going away. */
class EndlessGenerator implements TextGenerator {
  readonly name = 'endless'
  aborted = false
  async generate(): Promise<never> { throw new Error('streams only') }
  async *stream(_request: TextGenerationRequest, signal?: AbortSignal): AsyncIterable<TextChunk> {
    yield { kind: 'delta', text: 'Hello' }
    await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }))
    this.aborted = true
  }
}

async function serve(text: TextGenerator) {
  const cairn = createCairn({ baseUrl: BASE_URL, text, logIntegration: false, webhooks: { enabled: false } })
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  opened.push({ cairn, close: () => server.close() })
  await signInOverHttp(server.url, BASE_URL, 'ada')
  return { cairn, url: server.url }
}

const visit = (url: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${url}/api/world/profile/ada/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) })

function eventsOf(text: string): { event: string; data: Record<string, unknown> }[] {
  return text.trim().split('\n\n').map((block) => {
    const [eventLine, dataLine] = block.split('\n')
    return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown> }
  })
}

describe('streamed Live Twin replies', () => {
  it('arrive as delta events, then done with the stored thread', async () => {
    const { cairn, url } = await serve(new DeterministicTextGenerator())
    const response = await visit(url, { visitorId: 'visitor-0001', text: 'Tell me about cairns' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const events = eventsOf(await response.text())
    const deltas = events.filter((e) => e.event === 'delta')
    expect(deltas.length).toBeGreaterThan(1)
    const done = events.at(-1)!
    expect(done.event).toBe('done')
    expect((done.data.reply as { text: string }).text).toBe(deltas.map((d) => d.data.text).join(''))
    const stored = await cairn.container.get<import('../../ports/store.js').Store>(Symbol.for('cairn.Store')).query(WORLD_MESSAGES, { index: 'by_time', limit: 10 })
    expect(stored.items).toHaveLength(1)
  })

  it('stop the generation when the client disconnects, storing nothing', async () => {
    const generator = new EndlessGenerator()
    const { cairn, url } = await serve(generator)
    const controller = new AbortController()
    const response = await visit(url, { visitorId: 'visitor-0002', text: 'hi' }, controller.signal)
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('event: delta')
    controller.abort()
    await expect.poll(() => generator.aborted, { timeout: 5000 }).toBe(true)
    const stored = await cairn.container.get<import('../../ports/store.js').Store>(Symbol.for('cairn.Store')).query(WORLD_MESSAGES, { index: 'by_time', limit: 10 })
    expect(stored.items).toHaveLength(0)
  })

  it('refuse bad input and unknown Twins before any event, as JSON', async () => {
    const { url } = await serve(new DeterministicTextGenerator())
    const bad = await visit(url, { text: 'no visitor id' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ ok: false })
    const unknown = await fetch(`${url}/api/world/profile/nobody-here/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visitorId: 'visitor-0003', text: 'hi' }) })
    expect(unknown.status).toBe(404)
  })
})
