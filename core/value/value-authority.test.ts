/**
 * Value execution checks the authority it names: `authorityDigest` must be the binding digest of an
 * open authority session of the calling application and person, consented to
 * `cairn:value.execute`. Every other digest is refused over HTTP with 403, nothing written and no
 * outcome saved under the key (the lookup still says `unknown`).
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { APP, OTHER_APP, createRuntimeTestWorld, openSessionBody, type IdentityHolder, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { AUTHORITY_SESSION_MS } from '../runtime/authority-sessions.js'
import { issueValue } from './issue-value.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const SCOPES = ['cairn:runtime.session', 'cairn:value.execute', 'cairn:value.read']
const RESERVE = '/api/sdk/v1/value/reserve/execute'
const SETTLE = '/api/sdk/v1/value/settlement/execute'

let runtime: RuntimeTestWorld
let ada: IdentityHolder
let token: string
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await runtime.identityHolder('ada')
  token = await runtime.tokenFor(SCOPES)
  expect(E.isRight(await issueValue(runtime.deps, { userId: ada.userId, unit: 'phi', amount: '1000', idempotencyKey: 'seed' }))).toBe(true)
})

interface SessionWire { authoritySessionHandle: string; sessionBindingDigest: string; revocationHead: string }

/** Opens a session over HTTP for `holder`, with `callToken` (the application's token for that person). */
async function openSession(holder: IdentityHolder, callToken: string, consent: readonly string[] = ['cairn:value.execute'], applicationId = APP): Promise<SessionWire> {
  const body = openSessionBody(holder, { applicationId, consent, rails: ['value'] })
  const response = await runtime.http('POST', '/api/sdk/v1/runtime/authority-sessions/open', { body, token: callToken })
  expect(response.status).toBe(200)
  return ((await response.json()) as { wire: SessionWire }).wire
}

const reserveBody = (authorityDigest: string, idempotencyKey = 'r-1') => ({ intent: { schema: 'cairn.value.reserve.v1', idempotencyKey, amountPhiMicro: '400' }, authorityDigest })

async function refused(path: string, body: { intent: { idempotencyKey: string } }, callToken = token) {
  const before = await runtime.snapshot()
  const response = await runtime.http('POST', path, { body, token: callToken })
  expect(response.status).toBe(403)
  expect(await response.json()).toMatchObject({ ok: false, error: expect.stringContaining('authority session') })
  expect(await runtime.snapshot()).toBe(before)
  const lookup = await runtime.call('getValueExecutionByIdempotency', { params: { idempotencyKey: body.intent.idempotencyKey }, token: callToken })
  expect(bodyOf(lookup)).toMatchObject({ status: 'unknown', writes: 0 })
}

describe('authorityDigest of Reserve and Settlement', () => {
  it('moves value under an open session of the caller, and binds its digest into the receipt', async () => {
    const session = await openSession(ada, token)
    const response = await runtime.http('POST', RESERVE, { body: reserveBody(session.sessionBindingDigest), token })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'committed', receipt: { authorityDigest: session.sessionBindingDigest, amountPhiMicro: '400' } })
  })

  it('refuses 64 zeros, and any digest that names no session', async () => {
    await openSession(ada, token)
    await refused(RESERVE, reserveBody('0'.repeat(64)))
    await refused(SETTLE, { intent: { schema: 'cairn.value.settlement.v1', idempotencyKey: 's-1', amountPhiMicro: '1', counterpartySubjectId: ada.userId } as never, authorityDigest: 'f'.repeat(64) } as never)
  })

  it('refuses another person\'s open session', async () => {
    const bob = await runtime.identityHolder('bob')
    const bobs = await openSession(bob, await runtime.tokenFor(SCOPES, APP, await runtime.world.signIn('bob')))
    await refused(RESERVE, reserveBody(bobs.sessionBindingDigest))
  })

  it('refuses the caller\'s session of another application', async () => {
    const other = await openSession(ada, await runtime.tokenFor(SCOPES, OTHER_APP), ['cairn:value.execute'], OTHER_APP)
    await refused(RESERVE, reserveBody(other.sessionBindingDigest))
  })

  it('refuses a session whose consent does not cover value execution', async () => {
    const session = await openSession(ada, token, ['cairn:runtime.session'])
    await refused(RESERVE, reserveBody(session.sessionBindingDigest))
  })

  it('refuses a closed session and an expired one', async () => {
    const closed = await openSession(ada, token)
    const close = await runtime.http('POST', '/api/sdk/v1/runtime/authority-sessions/close', {
      body: { applicationId: APP, authoritySessionHandle: closed.authoritySessionHandle, expectedPriorRevocationHead: closed.revocationHead, expectedPriorSessionBindingDigest: closed.sessionBindingDigest },
      token,
    })
    expect(close.status).toBe(200)
    await refused(RESERVE, reserveBody(closed.sessionBindingDigest))
    const expiring = await openSession(ada, token)
    runtime.world.clock.advance(AUTHORITY_SESSION_MS)
    await refused(RESERVE, reserveBody(expiring.sessionBindingDigest, 'r-2'), await runtime.tokenFor(SCOPES))
  })
})
