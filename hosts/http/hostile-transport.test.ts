/**
 * Hostile input at the transport (issue 7 §2): every refusal the server can shape is
 * `{ ok: false, error }`, credentials are checked before bodies are read, bodies are bounded
 * alone and together, and stalled sockets are closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { operations } from '../../core/contract/operations/index.js'
import { pinnedOptions } from './test-support.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'
import { rawExchange, type RawAnswer } from './raw-socket.js'

const MiB = 1024 * 1024

function expectJsonRefusal(answer: RawAnswer, status: number): void {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  const body = JSON.parse(answer.body) as { ok: boolean; error: string }
  expect(body.ok).toBe(false)
  expect(body.error.length).toBeGreaterThan(5)
}

/** A chunked body of `total` bytes in 64 KiB chunks. */
function chunked(head: string, total: number): (string | Buffer)[] {
  const chunk = Buffer.alloc(64 * 1024, 0x61)
  const parts: (string | Buffer)[] = [head]
  for (let sent = 0; sent < total; sent += chunk.length) parts.push(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]))
  parts.push('0\r\n\r\n')
  return parts
}

describe('hostile input through a listening server', () => {
  let cairn: Cairn
  let server: RunningServer
  beforeAll(async () => {
    cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1' }))
    server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await server.close()
    await cairn.close()
  })

  it('answers a chunked body over the limit on a GET route with 413 JSON, then closes', async () => {
    const head = 'GET /api/game/signal-run/cards/c1/auction HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n'
    const answer = await rawExchange(server.port, chunked(head, 2 * MiB))
    expectJsonRefusal(answer, 413)
    expect(answer.closed).toBe(true)
    expect(cairn.inFlightBodyBytes()).toBe(0)
  })

  it.each([
    ['DELETE', '/api/oidc/agent-tokens'],
    ['OPTIONS', '/api/public-proof/registry/feed'],
  ])('answers an unauthenticated chunked body on %s %s with 401 JSON before reading it', async (method, path) => {
    const head = `${method} ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`
    const answer = await rawExchange(server.port, chunked(head, 4 * MiB))
    expectJsonRefusal(answer, 401)
    expect(answer.closed).toBe(true)
  })

  it.each([
    ['a malformed request line', ['GARBAGE\r\n\r\n'], 400],
    ['headers past the size limit', [`GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`], 431],
    ['a bad header name', ['GET / HTTP/1.1\r\nhost: x\r\nbad header: 1\r\n\r\n'], 400],
    ['Content-Length with Transfer-Encoding', ['POST /api/auth/cairn-id/continue HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n'], 400],
    ['a bad chunk size', ['POST /api/auth/cairn-id/continue HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n', 'zz\r\nabc\r\n0\r\n\r\n'], 400],
  ] as const)('answers %s with JSON', async (_, parts, status) => {
    const answer = await rawExchange(server.port, parts, { pauseMs: 20 })
    expectJsonRefusal(answer, status)
    expect(answer.closed).toBe(true)
  })
})

describe('credentials before bodies, and public operations ignore credentials they do not need', () => {
  let cairn: Cairn
  beforeAll(() => {
    cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1' }))
  })
  afterAll(() => cairn.close())
  const request = (path: string, init?: RequestInit) => cairn.fetch(new Request(`http://127.0.0.1${path}`, init))

  it('answers malformed JSON without credentials with 401 on credentialed routes', async () => {
    for (const [method, path] of [['PATCH', '/api/connect/twin/market/mandate'], ['DELETE', '/api/oidc/agent-tokens']] as const) {
      const response = await request(path, { method, headers: { 'content-type': 'application/json' }, body: '{not json' })
      expect([path, response.status]).toEqual([path, 401])
      expect(await response.json()).toMatchObject({ ok: false })
    }
  })

  it('a malformed Basic header makes no public operation answer 401', async () => {
    // ProofConsent is not among them: the exchange reads the application's Basic client credentials.
    const open = operations.filter((op) => op.auth === 'None')
    expect(open.length).toBeGreaterThanOrEqual(41)
    const unauthorized: string[] = []
    for (const op of open) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x')
      const response = await request(path, { method: op.method, headers: { authorization: 'Basic !!!not-base64' } })
      if (response.status === 401) unauthorized.push(`${op.method} ${op.path}`)
    }
    expect(unauthorized).toEqual([])
  })

  it('refuses HTTP Basic together with client_secret_post (RFC 6749 §2.3) with 400 invalid_request', async () => {
    const response = await request('/api/oidc/token', {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('app:secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=c&client_id=app&client_secret=secret',
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toMatch(/^invalid_request: /)
  })

  it('quotes at most a short prefix of caller input in an error', async () => {
    const response = await request(`/releases/v${'9'.repeat(200_000)}`)
    expect(response.status).toBe(404)
    expect((await response.text()).length).toBeLessThan(300)
  })
})

describe('bytes in flight across requests', () => {
  it('refuses a body past the shared budget with 503 and Retry-After, and gives the bytes back', async () => {
    const cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1', limits: { jsonBytes: 1 * MiB, multipartBytes: 1 * MiB, inFlightBytes: 1000 } }))
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    try {
      const body = JSON.stringify({ padding: 'a'.repeat(2000) })
      const answer = await rawExchange(server.port, [`POST /api/auth/cairn-id/continue HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`])
      expectJsonRefusal(answer, 503)
      expect(answer.headers['retry-after']).toBe('2')
      const small = await fetch(`${server.url}/api/auth/cairn-id/continue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(small.status).toBe(400) // read and decoded: the budget was given back
      expect(cairn.inFlightBodyBytes()).toBe(0)
    } finally {
      await server.close()
      await cairn.close()
    }
  })
})

describe('socket timeouts', () => {
  it('closes a socket stalled in its headers and one stalled in its body, while both are stalled', async () => {
    const cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1' }))
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0, limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } })
    try {
      const [headers, body] = await Promise.all([
        rawExchange(server.port, ['GET /api/openapi HTTP/1.1\r\nhost: x\r\n'], { waitMs: 5000 }),
        rawExchange(server.port, ['POST /api/auth/cairn-id/continue HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":'], { waitMs: 5000 }),
      ])
      for (const answer of [headers, body]) {
        expect(answer.closed).toBe(true)
        expect(answer.elapsedMs).toBeLessThan(3000)
      }
      expectJsonRefusal(headers, 408)
    } finally {
      await server.close()
      await cairn.close()
    }
  })

  it('caps open connections', async () => {
    const cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1' }))
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0, limits: { maxConnections: 1, headersTimeoutMs: 2000 } })
    try {
      const first = rawExchange(server.port, ['GET /api/openapi HTTP/1.1\r\nhost: x\r\n'], { waitMs: 1500 })
      await new Promise((r) => setTimeout(r, 100))
      const second = await rawExchange(server.port, ['GET /releases HTTP/1.1\r\nhost: x\r\n\r\n'], { waitMs: 1500 })
      expect(second.closed).toBe(true)
      expect(second.status).toBe(0) // dropped without an answer: past the cap
      await first
    } finally {
      await server.close()
      await cairn.close()
    }
  })
})
