/**
 * Issue 22 §8: hostile input that reached a 500 on the routes built last — a lone surrogate in a
 * string member, 10,000 levels of arrays or objects in an unknown member — now stops where every
 * operation's input is decoded (core/encoding/untrusted-json.ts): 400 in the error shape, over
 * HTTP, with no Store commit. core/usecases/execute-operation.test.ts holds the same for every
 * operation of the contract.
 */
import { expect, it } from 'vitest'
import { issueBearerToken } from '../../conformance/support/bearer-token.js'
import { countingStore } from '../../conformance/support/counting-store.js'
import { describeHosts, PINNED_TIME } from './test-support.js'

/** Business-tier names, one per Creator token the tests issue. */
const BUSINESS = Array.from({ length: 8 }, (_, i) => `hostilebiz${i}`)
let businessUsed = 0
const counted = countingStore()

const LONE_SURROGATE = '\ud800'
/** `depth` levels of arrays (or objects), as JSON text: built as text, never as a value a recursive writer walks. */
function deeplyNestedJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`
}

const ROUTES = [
  { path: '/api/connect/transfers', scopes: ['cairn:wallet.transfer'], body: { recipientUserId: 'usr_nobody', unit: { currency: 'phi', amount: '1' }, idempotencyKey: 'k' }, field: ['idempotencyKey'] },
  { path: '/api/sdk/v1/value/reserve/execute', scopes: ['cairn:value.execute'], body: { intent: { schema: 'phi.reserve.v1', idempotencyKey: 'k', amountPhiMicro: '1' }, authorityDigest: '0'.repeat(64), applicationId: 'app' }, field: ['applicationId'] },
  { path: '/api/sdk/v1/value/settlement/execute', scopes: ['cairn:value.execute'], body: { intent: { schema: 'phi.settlement.v1', idempotencyKey: 'k', amountPhiMicro: '1' }, authorityDigest: '0'.repeat(64), applicationId: 'app' }, field: ['applicationId'] },
  { path: '/api/developers/creator/run', scopes: ['cairn:production'], body: { requestId: 'r', quoteExpiresAt: '2030-01-01T00:00:00Z', prompt: 'p' }, field: ['requestId'], business: true },
  { path: '/api/connect/twin/approval', scopes: ['cairn:twin.write'], body: { performance: { wins: 1 }, note: 'n' }, field: ['performance', 'wins'] },
] as const

/** `body` with the member at `path` set to `value`. */
function withMember(body: object, path: readonly string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body) as Record<string, unknown>
  let at = copy
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>
  at[path.at(-1)!] = value
  return copy
}

/** Every string member of `value` (paths), so each gets its own lone surrogate. */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, member]) => stringPaths(member, [...path, key]))
}

describeHosts('hostile input on every route issue 22 §8 names', ({ request }) => {
  const post = async (path: string, token: string, text: string) => {
    const before = counted.commits()
    const response = await request(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: text })
    const body = (await response.json()) as { ok: unknown; error: unknown }
    return { status: response.status, body, commits: counted.commits() - before }
  }
  const tokenFor = async (route: (typeof ROUTES)[number]) =>
    (await issueBearerToken(request, 'http://127.0.0.1:8787', PINNED_TIME, route.scopes, 'business' in route ? BUSINESS[businessUsed++] : undefined)).accessToken

  it.each(ROUTES.map((route) => [route.path, route] as const))('%s: a lone surrogate in every string member is 400, nothing committed', async (_path, route) => {
    const token = await tokenFor(route)
    for (const path of [...stringPaths(route.body), route.field]) {
      const answer = await post(route.path, token, JSON.stringify(withMember(route.body, path, `x${LONE_SURROGATE}`)))
      expect(answer).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining('lone UTF-16 surrogate') }, commits: 0 })
    }
    const inName = await post(route.path, token, JSON.stringify(withMember(route.body, ['extra'], { [`k${LONE_SURROGATE}`]: 1 })))
    expect(inName).toMatchObject({ status: 400, body: { ok: false }, commits: 0 })
  })

  it.each(ROUTES.map((route) => [route.path, route] as const))('%s: 10,000 levels of arrays or objects in an unknown member are 400, nothing committed', async (_path, route) => {
    const token = await tokenFor(route)
    const target = route.path === '/api/connect/twin/approval' ? 'performance' : 'unknownMember'
    for (const kind of ['array', 'object'] as const) {
      const text = JSON.stringify(withMember(route.body, [target], '@@')).replace('"@@"', target === 'performance' ? `{"deep":${deeplyNestedJson(10_000, kind)}}` : deeplyNestedJson(10_000, kind))
      const answer = await post(route.path, token, text)
      expect(answer).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining('levels deep') }, commits: 0 })
    }
  })
}, { store: counted.store, logIntegration: false, sweep: false, deployment: { clients: [], businessAccounts: BUSINESS } })
