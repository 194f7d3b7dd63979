/**
 * The identity scenario, run on a whole Cairn over a given store and blob store, in-process and
 * through a listening server (h3's describeMatrix habit): sign in with an ID proof, the OAuth code
 * flow with PKCE, refresh rotation and reuse detection, agent tokens at the bearer boundary. It
 * proves the domain rules hold on every storage combination, not only on memory.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'
import { startHttpServer, type RunningServer } from '../../hosts/http/start-http-server.js'
import { createCairn, type Cairn } from '../../hosts/library/create-cairn.js'
import type { Store } from '../../ports/store.js'
import { openBlobFixture, openStoreFixture, type ScenarioOptions } from '../targets.js'

export type IdentityScenarioOptions = ScenarioOptions

const BASE_URL = 'http://cairn.scenario.test'
const REDIRECT_URI = 'https://app.example/callback'
const CLIENT = { id: 'app', secret: 'app-secret' }
const NOW = Date.parse('2026-06-25T00:00:00.000Z')

/** @example describeIdentityScenario({ name: 'store=memory blobs=memory', store: async () => new MemoryStore(), blobs: async () => new MemoryBlobStore() }) */
export function describeIdentityScenario(options: IdentityScenarioOptions): void {
  for (const mode of ['in-process', 'listening'] as const) {
    describe(`${options.name} identity scenario [${mode}]`, () => {
      let cairn: Cairn
      let server: RunningServer | undefined
      let dispose: () => Promise<void>
      let users = 0
      let clock: FixedClock
      let storeUnderTest: Store

      beforeAll(async () => {
        const store = await openStoreFixture(options.store)
        const blobs = await openBlobFixture(options.blobs)
        clock = new FixedClock(NOW)
        storeUnderTest = store.store
        cairn = createCairn({
          baseUrl: BASE_URL,
          clock,
          store: store.store,
          blobs: blobs.blobs,
          logError: () => {},
          deployment: { clients: [{ clientId: CLIENT.id, redirectUris: [REDIRECT_URI], clientSecretSha256: sha256Hex(CLIENT.secret), firstParty: true }] },
        })
        if (mode === 'listening') server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
        dispose = async () => {
          await server?.close()
          await cairn.close()
          await store.dispose()
          await blobs.dispose()
        }
      })
      afterAll(() => dispose())

      const call = (path: string, init: RequestInit = {}) =>
        server ? fetch(`${server.url}${path}`, { redirect: 'manual', ...init }) : cairn.fetch(new Request(`${BASE_URL}${path}`, init))

      /** A new person signed in with an ID proof; answers the session cookie. */
      const signIn = async (): Promise<string> => {
        users += 1
        const username = `person${users}`
        const privateKey = generateKeyPairSync('ed25519').privateKey
        const body = signIdContinueRequest({ username, displayName: username, localUid: `device-${users}` }, {
          privateKey, challenge: randomBytes(24), createdAt: new Date(NOW).toISOString(), audience: BASE_URL,
        })
        const post = () => call('/api/auth/cairn-id/continue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        const first = await post()
        expect(first.status).toBe(200)
        expect(await first.json()).toMatchObject({ ok: true, created: true, session: { username } })
        expect((await post()).status).toBe(401) // the same challenge never works twice
        return /cairn_session=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!
      }

      const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`
      const token = (form: Record<string, string>) =>
        call('/api/oidc/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() })

      it('signs in with an ID proof and records it on the public ledger', async () => {
        await signIn()
        const feed = (await (await call('/api/ledger/actions/public?limit=200')).json()) as { events: { action: string; actor: string }[] }
        expect(feed.events.map((e) => e.action)).toEqual(expect.arrayContaining(['identity_created', 'session_started']))
        expect(feed.events.every((e) => !e.actor.includes('person'))).toBe(true)
      })

      /** Authorization request with PKCE for a signed-in person; answers the code and its verifier. */
      const authorize = async (cookie: string): Promise<{ code: string; verifier: string }> => {
        const verifier = randomBytes(32).toString('base64url')
        const challenge = createHash('sha256').update(verifier).digest('base64url')
        const query = new URLSearchParams({
          response_type: 'code', client_id: CLIENT.id, redirect_uri: REDIRECT_URI, scope: 'openid profile cairn:record',
          state: 'st', nonce: 'nn', code_challenge: challenge, code_challenge_method: 'S256',
        })
        const authorized = await call(`/api/oidc/authorize?${query}`, { headers: { cookie: `cairn_session=${cookie}` } })
        expect(authorized.status).toBe(302)
        const location = new URL(authorized.headers.get('location')!)
        expect(location.searchParams.get('state')).toBe('st')
        return { code: location.searchParams.get('code')!, verifier }
      }
      const exchange = (code: string, verifier: string) => token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier })
      const isActive = async (accessToken: string) => {
        const introspected = await call('/api/oidc/introspect', {
          method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${accessToken}`,
        })
        return ((await introspected.json()) as { active: boolean }).active
      }

      it('runs the PKCE code flow and rotates refresh tokens, revoking the grant when one is reused', async () => {
        const { code, verifier } = await authorize(await signIn())
        const exchanged = await exchange(code, verifier)
        expect(exchanged.status).toBe(200)
        const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; id_token: string }
        expect(tokens.id_token).toBeTruthy()
        const userinfo = await call('/api/oidc/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } })
        expect(await userinfo.json()).toMatchObject({ preferred_username: expect.stringMatching(/^person/) })

        const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
        expect(refreshed.status).toBe(200)
        const rotated = (await refreshed.json()) as { refresh_token: string; access_token: string }
        expect(rotated.refresh_token).not.toBe(tokens.refresh_token)
        expect(await isActive(rotated.access_token)).toBe(true)
        expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400)
        expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).status).toBe(400)
        expect(await isActive(rotated.access_token)).toBe(false)
      })

      it('uses a code once: a second exchange is refused and revokes what the first issued', async () => {
        const { code, verifier } = await authorize(await signIn())
        const first = (await (await exchange(code, verifier)).json()) as { access_token: string }
        expect(await isActive(first.access_token)).toBe(true)
        expect((await exchange(code, verifier)).status).toBe(400)
        expect(await isActive(first.access_token)).toBe(false)
      })

      it('honours agent tokens at the bearer boundary by scope until they are revoked', async () => {
        const cookie = await signIn()
        const created = await call('/api/oidc/agent-tokens', {
          method: 'POST', headers: { 'content-type': 'application/json', cookie: `cairn_session=${cookie}` },
          body: JSON.stringify({ clientId: 'ci', scopes: ['openid'], label: 'scenario' }),
        })
        expect(created.status).toBe(200)
        const { accessToken, tokenId } = (await created.json()) as { accessToken: string; tokenId: string }
        const bearer = { authorization: `Bearer ${accessToken}` }
        expect((await call('/api/oidc/userinfo', { headers: bearer })).status).toBe(200)
        expect((await call('/api/connect/wallet/me', { headers: bearer })).status).toBe(403)
        const revoked = await call('/api/oidc/agent-tokens', {
          method: 'DELETE', headers: { 'content-type': 'application/json', cookie: `cairn_session=${cookie}` },
          body: JSON.stringify({ clientId: 'ci', tokenId }),
        })
        expect(revoked.status).toBe(200)
        expect((await call('/api/oidc/userinfo', { headers: bearer })).status).toBe(401)
      })

      // Last: it moves the clock past every window.
      it('sweeps what is past its expiry and nothing sooner: reuse detection still works inside the windows', async () => {
        const cookie = await signIn()
        const { code, verifier } = await authorize(cookie)
        const tokens = (await (await exchange(code, verifier)).json()) as { refresh_token: string }
        const rotated = (await (await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json()) as { refresh_token: string; access_token: string }
        // A link code made from the account page and never used (the way back for a new browser).
        const account = await (await call('/account', { headers: { cookie: `cairn_session=${cookie}` } })).text()
        const csrf = /name="csrf" value="([^"]+)"/.exec(account)![1]!
        const linkCode = await call('/account', {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `cairn_session=${cookie}`, origin: BASE_URL },
          body: new URLSearchParams({ csrf, action: 'link-code' }).toString(),
        })
        expect(linkCode.status).toBe(200)
        expect((await storeUnderTest.query('identity.link_codes', { index: 'byExpiresAt', limit: 10 })).items).toHaveLength(1)

        // Within every window the sweeper deletes nothing this flow needs: the spent code, the
        // rotated refresh token and the used challenge all still count.
        clock.advance(2 * 60 * 60 * 1000)
        const early = await cairn.sweepExpired()
        expect(early['refresh tokens']).toBe(0)
        expect(early['revoked grants']).toBe(0)
        expect(early['authorization codes']).toBeGreaterThan(0) // 60-second codes are long gone
        expect(early['used ID-proof challenges']).toBeGreaterThan(0) // no proof of theirs is in its 10-minute window any more
        expect(early['used or expired link codes']).toBe(1) // expired 10 minutes after it was made, plus the grace
        expect(await isActive(rotated.access_token)).toBe(false) // 10-minute access token expired
        const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
        expect(reused.status).toBe(400) // reuse still detected…
        expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).status).toBe(400) // …and it revoked the grant
        await authorize(cookie) // the session is still valid

        // Past every window (refresh lifetime, session lifetime, grace) everything goes.
        clock.advance(31 * 24 * 60 * 60 * 1000 + 2 * 60 * 60 * 1000)
        const late = await cairn.sweepExpired()
        expect(late['refresh tokens']).toBeGreaterThanOrEqual(2)
        expect(late['revoked grants']).toBeGreaterThanOrEqual(1)
        expect(late['expired sessions']).toBeGreaterThanOrEqual(1)
        for (const [collection, index] of [['oidc_refresh_tokens', 'byExpiresAt'], ['oidc_authorization_codes', 'byExpiresAt'], ['sessions', 'byExpiresAt'], ['id-proof-challenges', 'byUsedAt'], ['identity.link_codes', 'byExpiresAt']] as const) {
          expect([collection, (await storeUnderTest.query(collection, { index, limit: 10 })).items.length]).toEqual([collection, 0])
        }
        expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).status).toBe(400) // gone is still refused
        expect(await cairn.sweepExpired()).toEqual({ 'used ID-proof challenges': 0, 'authorization codes': 0, 'refresh tokens': 0, 'revoked grants': 0, 'expired sessions': 0, 'pushed authorization requests': 0, 'DPoP proof identifiers': 0, 'rate-limit counters': 0, 'used runtime challenges': 0, 'expired authority sessions': 0, 'recipient locators': 0, 'expired proof-authority grants': 0, 'used or expired link codes': 0 })
      })
    })
  }
}
