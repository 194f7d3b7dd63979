import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { operations } from '../../core/contract/operations/index.js'
import { useCases } from '../../core/usecases/registry.js'
import { pathParameters, type OperationSpec } from '../../core/contract/operation.js'
import type { Authenticator } from '../../core/auth/authenticator.js'
import { json } from '../../core/usecases/use-case.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { memoryDeps } from './describe-env.js'
import { createHttpApp } from './create-http-app.js'
import { describeHosts, pinnedOptions } from './test-support.js'
import { startHttpServer } from './start-http-server.js'
import { createCairn } from '../library/create-cairn.js'
import { request as httpRequest } from 'node:http'

async function expectError(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as { ok: unknown; error: unknown }
  expect(body.ok).toBe(false)
  expect(typeof body.error).toBe('string')
  expect((body.error as string).length).toBeGreaterThan(0)
  expect(body.error).not.toMatch(/\bat .*\.ts:\d+|Error:|stack/i)
  return body.error as string
}

/** A concrete URL for an operation's path. */
function urlOf(op: OperationSpec): string {
  return pathParameters(op.path).reduce((path, name) => path.replace(`{${name}}`, `sample-${name}`), op.path)
}

describeHosts('every operation of the contract table', ({ request }) => {
  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s answers honestly without credentials', async (_name, op) => {
    const response = await request(urlOf(op), { method: op.method })
    if (op.auth === 'None' || op.auth === 'ProofConsent') {
      const needsInput = (op.request.kind !== 'none' && op.request.required) || op.query.some((q) => q.required)
      if (needsInput) await expectError(response, 400)
      else if (useCases[op.operationId]) expect(response.status).toBeLessThan(500)
      else await expectError(response, 501)
    } else {
      expect(response.headers.get('www-authenticate')).toContain(op.auth === 'Client' ? 'Basic' : 'Bearer')
      await expectError(response, 401)
    }
  })
})

describeHosts('HTTP host boundaries', ({ request }) => {
  it('answers unknown routes with 404 in the error shape', async () => {
    expect(await expectError(await request('/api/nothing-here'), 404)).toContain('/api/nothing-here')
  })

  it('answers a known path with another method with 405 and Allow', async () => {
    const response = await request('/api/oidc/jwks', { method: 'DELETE' })
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    await expectError(response, 405)
  })

  it('refuses malformed JSON with 400', async () => {
    const response = await request('/api/payments/embed/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amountUsd":' })
    expect(await expectError(response, 400)).toBe('The request body is not valid JSON')
  })

  it('refuses a body of the wrong media type with 415', async () => {
    const response = await request('/api/payments/embed/checkout', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' })
    await expectError(response, 415)
  })

  it('decodes bodies with the contract codecs and names what is wrong', async () => {
    const response = await request('/api/payments/embed/checkout', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amountUsd: 12.5, currency: 'usd' }),
    })
    expect(await expectError(response, 400)).toContain('body.amountUsd')
  })

  it('refuses a missing required query parameter and a repeated one', async () => {
    expect(await expectError(await request('/api/public-proof/by-url'), 400)).toContain('url')
    await expectError(await request('/api/public-proof/by-url?url=https://a.example/&url=https://b.example/'), 400)
    expect(await (await request('/api/public-proof/by-url?url=https://a.example/')).json()).toEqual({ ok: true, record: null })
  })

  it('refuses bad pagination values', async () => {
    expect(await expectError(await request('/api/wallet/ledger/public?limit=0'), 400)).toContain('limit')
    await expectError(await request('/api/wallet/ledger/public?since=yesterday'), 400)
  })
})

describeHosts('body size limits', ({ request }) => {
  it('refuses a JSON body over the limit with 413', async () => {
    const big = JSON.stringify({ amountUsd: '1', currency: 'usd', pad: 'x'.repeat(2048) })
    const response = await request('/api/payments/embed/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })
    await expectError(response, 413)
  })

  it('refuses a multipart upload over the limit with 413', async () => {
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(8192)]), 'big.bin')
    await expectError(await request('/api/document-seal', { method: 'POST', body: form }), 413)
  })

  it('accepts a multipart upload within the limit', async () => {
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'application/octet-stream' }), 'small.bin')
    const response = await request('/api/document-seal', { method: 'POST', body: form })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, kind: 'integrity-seal', byteLength: 3 })
  })
}, { limits: { jsonBytes: 1024, multipartBytes: 4096 } })

const allowEverything: Authenticator = {
  authenticate: async () => E.right({ kind: 'bearer', subject: 'u1', clientId: 'c1', scopes: [], tokenId: 't1', businessTier: true }),
}

describe('GET routes that carry a body, as published', () => {
  // WHATWG fetch cannot send a GET body, so the listening server is called with node:http and the
  // in-process path through the library's typed call. Each route's bodyless case: get-with-body.test.ts.
  it('reads the JSON body of a GET over HTTP, and a body the route ignores changes nothing', async () => {
    const cairn = createCairn(pinnedOptions({ authenticator: allowEverything }))
    const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    try {
      for (const body of [{ marketId: 'm1', side: 'buy' }, { side: 'buy' }, {}]) {
        expect(await rawRequest(`${server.url}/api/connect/twin/market/intents`, 'GET', JSON.stringify(body))).toEqual({ status: 200, body: { ok: true, intents: [] } })
      }
      const malformed = await rawRequest(`${server.url}/api/connect/twin/market/intents`, 'GET', '{"side":')
      expect(malformed).toEqual({ status: 400, body: { ok: false, error: 'The request body is not valid JSON' } })
    } finally {
      await server.close()
      await cairn.close()
    }
  })

  it('ignores the published body of a GET in-process too', async () => {
    const cairn = createCairn(pinnedOptions({ authenticator: allowEverything }))
    for (const body of [{ side: 'buy' }, undefined]) {
      const ok = await cairn.call('listTwinMarketIntents', { body: body as never })
      expect(E.isRight(ok) && ok.right.kind === 'json' && ok.right.body).toEqual({ ok: true, intents: [] })
    }
    await cairn.close()
  })
})

function rawRequest(url: string, method: string, body: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('failures inside a use case', () => {
  const deps = memoryDeps()
  const logged: unknown[] = []
  const app = createHttpApp({
    env: {
      deps,
      authenticator: allowEverything,
      useCases: {
        getJwks: async () => { throw new Error('secret internal detail at db.ts:12') },
        getOpenIdConfiguration: async () => { throw new PortUnavailableError('Store', 'connection refused') },
        getWorldPublic: async () => E.right(json({ ok: true })),
      },
    },
    logError: (error) => logged.push(error),
  })

  it('answers 500 without leaking the internal message, and logs it', async () => {
    const response = await app.fetch(new Request('http://127.0.0.1:8787/api/oidc/jwks'))
    const error = await expectError(response, 500)
    expect(error).not.toContain('secret')
    expect(logged).toHaveLength(1)
  })

  it('answers 503 with Retry-After when a port is unavailable', async () => {
    const response = await app.fetch(new Request('http://127.0.0.1:8787/.well-known/openid-configuration'))
    expect(response.headers.get('retry-after')).toBe('5')
    await expectError(response, 503)
  })

  it('answers 200 JSON from a built use case', async () => {
    const response = await app.fetch(new Request('http://127.0.0.1:8787/api/world/public'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })
})
