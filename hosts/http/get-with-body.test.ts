/**
 * Every GET route the specification publishes with a body answers without one: a bodyless GET and
 * a GET carrying `{}` get the same answer (docs/decisions.md, "GET routes with a body"). The one
 * GET whose body is its input — inspecting a Twin mind file — says which body it needs. Over a real
 * socket, since fetch never sends a GET body.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operations } from '../../core/contract/operations/index.js'
import { signInOverHttp } from '../cli/serve-process-test-support.js'
import { startLoopbackCairn, type LoopbackCairn } from './pages/browser-test-support.js'

let host: LoopbackCairn
let base: string
let cookie: string
let token: string
beforeAll(async () => {
  host = await startLoopbackCairn()
  base = host.base
  cookie = await signInOverHttp(base, base, 'ada')
  const agent = await fetch(`${base}/api/oidc/agent-tokens`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ clientId: 'get-body', scopes: ['openid', 'profile', 'cairn:twin.read'] }),
  })
  token = ((await agent.json()) as { accessToken: string }).accessToken
}, 60_000)
afterAll(async () => host?.close())

/** A GET with or without a JSON body, as curl -X GET -d sends it. */
function get(path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: { ok: boolean; error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, {
      method: 'GET', headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) },
    }, (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const bearer = () => ({ authorization: `Bearer ${token}` })
const ROUTES: Record<string, { path: string; credentials: () => Record<string, string>; status: number }> = {
  getUserinfo: { path: '/api/oidc/userinfo', credentials: bearer, status: 200 },
  getTwinMarketMandate: { path: '/api/connect/twin/market/mandate', credentials: bearer, status: 200 },
  listTwinMarketIntents: { path: '/api/connect/twin/market/intents', credentials: bearer, status: 200 },
  getTwinApproval: { path: '/api/connect/twin/approval', credentials: bearer, status: 200 },
  // A card nobody recorded: the answer is about the card, never about the body.
  getCardAuction: { path: '/api/game/signal-run/cards/card_nobody/auction', credentials: () => ({}), status: 404 },
  listBattleRequests: { path: '/api/game/signal-run/cards/battle-request', credentials: () => ({ cookie }), status: 200 },
}

describe('GET routes published with a body', () => {
  it('are exactly the routes this test covers', () => {
    const published = operations.filter((op) => op.method === 'GET' && op.request.kind !== 'none').map((op) => op.operationId)
    expect(published.sort()).toEqual([...Object.keys(ROUTES), 'inspectTwinMind'].sort())
  })

  it.each(Object.entries(ROUTES))('%s answers a bodyless GET and a GET with {} alike', async (_id, route) => {
    const bodyless = await get(route.path, route.credentials())
    const empty = await get(route.path, route.credentials(), '{}')
    expect(bodyless.status).toBe(route.status)
    expect(empty).toEqual(bodyless)
    if (route.status === 200) expect(bodyless.json.ok).not.toBe(false)
  })

  it('inspectTwinMind, whose body is the file it inspects, says which body it needs', async () => {
    const bodyless = await get('/api/connect/twin/mind/import', bearer())
    expect(bodyless).toEqual({ status: 400, json: { ok: false, error: 'A multipart/form-data request body is required' } })
    const json = await get('/api/connect/twin/mind/import', bearer(), '{}')
    expect(json.status).toBe(415)
    expect(json.json.ok).toBe(false)
  })
})
