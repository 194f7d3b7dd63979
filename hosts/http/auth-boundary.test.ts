/**
 * The authentication boundary over every credentialed operation of the contract, built or not,
 * with real credentials obtained as a user would: an ID proof for a session, an agent token for a
 * bearer token. No credential → 401; a credential without the scope or tier → 403; the right
 * credential gets through to the operation (which may still answer 400 or 501).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { operations } from '../../core/contract/operations/index.js'
import { pathParameters, type OperationSpec } from '../../core/contract/operation.js'
import { SCOPES } from '../../core/contract/scopes.js'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { pinnedOptions } from './test-support.js'

const BASE = 'http://cairn.boundary.test'
const credentialed = operations.filter((op) => op.auth === 'Session' || op.auth === 'Bearer' || op.auth === 'Business')

let cairn: Cairn
const request = (op: OperationSpec, headers: Record<string, string>) => {
  const path = pathParameters(op.path).reduce((p, name) => p.replace(`{${name}}`, `sample-${name}`), op.path)
  return cairn.fetch(new Request(`${BASE}${path}`, { method: op.method, headers }))
}

async function signIn(username: string): Promise<string> {
  const body = signIdContinueRequest(
    { username, displayName: username, localUid: `device-${username}` },
    { privateKey: generateKeyPairSync('ed25519').privateKey, challenge: randomBytes(24), createdAt: new Date(Date.parse('2026-06-25T00:00:00.000Z')).toISOString(), audience: BASE },
  )
  const response = await cairn.fetch(new Request(`${BASE}/api/auth/cairn-id/continue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  expect(response.status).toBe(200)
  return /cairn_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![1]!
}

async function agentToken(cookie: string, scopes: readonly string[]): Promise<string> {
  const response = await cairn.fetch(new Request(`${BASE}/api/oidc/agent-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `cairn_session=${cookie}` },
    body: JSON.stringify({ clientId: 'boundary-tests', scopes, label: 'boundary test' }),
  }))
  expect(response.status).toBe(200)
  return ((await response.json()) as { accessToken: string }).accessToken
}

const passed = (status: number) => status !== 401 && status !== 403 && status < 500 || status === 501

const person = { session: '', narrow: '', broad: '' }
const boss = { session: '', broad: '' }

beforeAll(async () => {
  // The agent tokens name a client that admits them as itself, so runtime operations see an application too.
  const clients = [{ clientId: 'boundary-tests', redirectUris: [], agentTokensActAsApplication: true }]
  cairn = createCairn(pinnedOptions({ baseUrl: BASE, deployment: { clients, businessAccounts: ['boss'] } }))
  person.session = await signIn('ada')
  boss.session = await signIn('boss')
  const everyScope = Object.keys(SCOPES)
  person.narrow = await agentToken(person.session, ['openid'])
  person.broad = await agentToken(person.session, everyScope.filter((s) => s !== 'cairn:production'))
  boss.broad = await agentToken(boss.session, everyScope)
})

describe('the authentication boundary on every credentialed operation', () => {
  it('covers the spec\'s 48 Bearer, 7 Session and 8 Business operations', () => {
    expect(credentialed.filter((op) => op.auth === 'Bearer')).toHaveLength(48)
    expect(credentialed.filter((op) => op.auth === 'Session')).toHaveLength(7)
    expect(credentialed.filter((op) => op.auth === 'Business')).toHaveLength(8)
  })

  it.each(credentialed.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', async (_name, op) => {
    expect((await request(op, {})).status).toBe(401)
    expect((await request(op, { authorization: 'Bearer not-a-token' })).status).toBe(401)
    if (op.auth === 'Session') {
      expect((await request(op, { cookie: 'cairn_session=forged' })).status).toBe(401)
      expect(passed((await request(op, { cookie: `cairn_session=${person.session}` })).status)).toBe(true)
    }
    if (op.auth === 'Bearer') {
      const narrow = await request(op, { authorization: `Bearer ${person.narrow}` })
      if (op.scopes.every((scope) => scope === 'openid')) expect(passed(narrow.status)).toBe(true)
      else expect(narrow.status).toBe(403)
      expect(passed((await request(op, { authorization: `Bearer ${person.broad}` })).status)).toBe(true)
    }
    if (op.auth === 'Business') {
      expect((await request(op, { cookie: `cairn_session=${person.session}` })).status).toBe(403)
      expect((await request(op, { authorization: `Bearer ${person.broad}` })).status).toBe(403)
      expect(passed((await request(op, { cookie: `cairn_session=${boss.session}` })).status)).toBe(true)
      expect(passed((await request(op, { authorization: `Bearer ${boss.broad}` })).status)).toBe(true)
    }
  })
})
