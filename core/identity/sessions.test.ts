import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { sha256Hex } from '../digest/sha256.js'
import { endSession, findActiveSession, newSession, SESSION_LIFETIME_MS, SESSIONS, sessionsCollection } from './sessions.js'
import { clearedSessionCookie, sessionCookie } from './session-cookie.js'

async function started() {
  const deps = memoryDeps()
  await deps.store.declare([sessionsCollection])
  const session = newSession(deps, 'usr_1')
  expect((await deps.store.commit([session.write])).ok).toBe(true)
  return { deps, session }
}

describe('sessions', () => {
  it('stores only the SHA-256 of a 32-byte random cookie value', async () => {
    const { deps, session } = await started()
    expect(session.cookieValue).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = await deps.store.get(SESSIONS, sha256Hex(session.cookieValue))
    expect(stored?.value).toEqual({
      sessionId: sha256Hex(session.cookieValue), userId: 'usr_1', createdAt: '2026-06-25T00:00:00.000Z', expiresAt: '2026-07-02T00:00:00.000Z', endedAt: null,
    })
    expect(JSON.stringify(stored)).not.toContain(session.cookieValue)
  })

  it('finds an active session until it expires, by the Clock', async () => {
    const { deps, session } = await started()
    expect((await findActiveSession(deps, session.cookieValue))?.record.userId).toBe('usr_1')
    deps.clock.advance(SESSION_LIFETIME_MS - 1)
    expect(await findActiveSession(deps, session.cookieValue)).toBeDefined()
    deps.clock.advance(1)
    expect(await findActiveSession(deps, session.cookieValue)).toBeUndefined()
  })

  it('finds nothing for unknown or malformed cookie values', async () => {
    const { deps, session } = await started()
    expect(await findActiveSession(deps, session.cookieValue.replace(/^./, session.cookieValue[0] === 'A' ? 'B' : 'A'))).toBeUndefined()
    expect(await findActiveSession(deps, sha256Hex(session.cookieValue))).toBeUndefined()
    expect(await findActiveSession(deps, '')).toBeUndefined()
  })

  it('ends a session once, with a ledger event in the same commit', async () => {
    const { deps, session } = await started()
    expect(await endSession(deps, session.cookieValue)).toEqual(E.right({ ended: true }))
    expect(await findActiveSession(deps, session.cookieValue)).toBeUndefined()
    expect(await endSession(deps, session.cookieValue)).toEqual(E.right({ ended: false }))
    const events = (await deps.store.readStream(ACTION_LEDGER_STREAM)).items.map((e) => e.value)
    expect(events).toMatchObject([{ kind: 'auth', action: 'session_ended' }])
    expect(JSON.stringify(events)).not.toContain('usr_1')
  })
})

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, lasts the session lifetime, Secure only over https, under the base path', () => {
    expect(sessionCookie({ baseUrl: 'http://127.0.0.1:8787' }, 'v')).toEqual({
      name: 'cairn_session', value: 'v', maxAgeSeconds: 604_800, httpOnly: true, secure: false, sameSite: 'Lax', path: '/',
    })
    expect(sessionCookie({ baseUrl: 'http://example.com/cairn' }, 'v')).toMatchObject({ name: 'cairn_session', secure: false, path: '/cairn' })
    // Over https the __Host- prefix keeps sibling subdomains from tossing a session cookie in.
    expect(sessionCookie({ baseUrl: 'https://example.com/cairn' }, 'v')).toMatchObject({ name: '__Host-cairn_session', secure: true, path: '/' })
    expect(clearedSessionCookie({ baseUrl: 'https://cairn.example' })).toMatchObject({ value: '', maxAgeSeconds: 0 })
  })
})
