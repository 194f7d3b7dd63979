/**
 * Retries as a client author expects from Stripe's SDKs: a refusal that says nothing happened is
 * retried after `Retry-After`; a lost answer is retried only when repeating cannot do the work
 * twice (a GET, or a POST with an Idempotency-Key); other refusals are answered at once.
 */
import { describe, expect, it } from 'vitest'
import { createCairnClient } from './cairn-client.js'
import { retryAfterOf, retryDelayMs } from './retry.js'

const refusal = (status: number, headers: Record<string, string> = {}) => new Response(JSON.stringify({ ok: false, error: `refused ${status}` }), { status, headers: { 'content-type': 'application/json', ...headers } })
const jwks = () => new Response(JSON.stringify({ keys: [] }), { status: 200, headers: { 'content-type': 'application/json' } })

function scripted(answers: readonly (Response | Error)[]) {
  // Each try gets a fresh copy of its scripted answer (a Response body is read once).
  const seen: Request[] = []
  const waits: number[] = []
  let next = 0
  const client = createCairnClient({
    baseUrl: 'https://cairn.example',
    fetch: async (request) => {
      seen.push(request)
      const answer = answers[Math.min(next++, answers.length - 1)]!
      if (answer instanceof Error) throw answer
      return new Response(await answer.clone().arrayBuffer(), { status: answer.status, headers: answer.headers })
    },
    sleep: async (ms) => void waits.push(ms),
  })
  return { client, seen, waits }
}

describe('retries', () => {
  it('waits as Retry-After says on 429 and tries again, for any method', async () => {
    const { client, seen, waits } = scripted([refusal(429, { 'retry-after': '2' }), refusal(400)])
    const answer = await client.call('verifyClaim', { body: { code: 'abc' } })
    expect(answer).toMatchObject({ ok: false, error: { _tag: 'InvalidInput', status: 400 } })
    expect(seen).toHaveLength(2)
    expect(waits).toEqual([2000])
  })

  it('gives up after the attempts, answering the last refusal with its Retry-After', async () => {
    const { client, seen } = scripted([refusal(503, { 'retry-after': '1' })])
    expect(await client.call('getJwks')).toMatchObject({ ok: false, error: { _tag: 'Unavailable', retryAfterSeconds: 1 } })
    expect(seen).toHaveLength(3)
  })

  it('retries a lost answer for a GET and for a POST with an Idempotency-Key, never for a bare POST', async () => {
    const get = scripted([new TypeError('socket hang up'), jwks()])
    expect(await get.client.call('getJwks')).toMatchObject({ ok: true, value: { keys: [] } })
    expect(get.seen).toHaveLength(2)

    const bare = scripted([new TypeError('socket hang up'), jwks()])
    expect(await bare.client.call('verifyClaim', { body: { code: 'abc' } })).toMatchObject({ ok: false, error: { _tag: 'Network' } })
    expect(bare.seen).toHaveLength(1)

    const keyed = scripted([refusal(502), jwks()])
    expect(await keyed.client.call('verifyClaim', { body: { code: 'abc' }, idempotencyKey: 'once-1' })).toMatchObject({ ok: true })
    expect(keyed.seen.map((request) => request.headers.get('idempotency-key'))).toEqual(['once-1', 'once-1'])
  })

  it('does not retry a 503 that gives no Retry-After for a POST (the work may have happened)', async () => {
    const { client, seen } = scripted([refusal(503), jwks()])
    expect(await client.call('verifyClaim', { body: { code: 'abc' } })).toMatchObject({ ok: false, error: { _tag: 'Unavailable' } })
    expect(seen).toHaveLength(1)
  })

  it('reads Retry-After as seconds or an HTTP date, and backs off with jitter under a cap', () => {
    expect(retryAfterOf(new Headers({ 'retry-after': '7' }))).toBe(7)
    expect(retryAfterOf(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), Date.parse('2026-01-01T00:00:00Z'))).toBe(30)
    expect(retryDelayMs({ maxDelayMs: 5000 }, 0, 60)).toBe(5000)
    expect(retryDelayMs({ baseDelayMs: 100 }, 3, undefined, () => 0.5)).toBe(400)
  })

  it('builds each request from the contract row: path parameters encoded, query, JSON body, credentials by auth class', async () => {
    const { client, seen } = scripted([jwks()])
    client.credentials.accessToken = 'tok'
    client.credentials.session = 'sess'
    await client.call('getExecution', { params: { applicationId: 'com.example.notes', executionId: 'a/b' } })
    await client.call('getJwks')
    expect(seen[0]!.url).toBe('https://cairn.example/api/sdk/v1/execution/com.example.notes/a%2Fb')
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok')
    // Like a browser, the session cookie goes along; over https under its __Host- name.
    expect(seen[0]!.headers.get('cookie')).toBe('__Host-cairn_session=sess')
    expect(seen[1]!.headers.get('authorization')).toBeNull()
  })
})
