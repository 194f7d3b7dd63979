/**
 * The consent form over HTTP: only Cairn's own page, in the signed-in user's browser, records
 * consent — a client (or any other site) cannot, whatever it sends.
 */
import { describe, expect, it } from 'vitest'
import { authorizeQuery, useSharedOidcTestHost, storeSnapshot, type OidcTestHost, type SignedIn } from '../oidc-test-support.js'

let host: OidcTestHost
let ada: SignedIn
useSharedOidcTestHost((h, a) => {
  host = h
  ada = a
})

const request = new URLSearchParams(authorizeQuery({ client_id: 'partner', scope: 'openid cairn:record' })).toString()

async function consentPageToken(cookie = ada.cookieHeader): Promise<string> {
  const page = await fetch(`${host.url}/consent?${request}`, { headers: { cookie } })
  expect(page.status).toBe(200)
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  return /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!
}

const submit = (form: Record<string, string>, headers: Record<string, string>) =>
  fetch(`${host.url}/consent`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) })

describe('POST /consent', () => {
  it('records consent from the page\'s own form and resumes the authorization request', async () => {
    const csrf = await consentPageToken()
    const answer = await submit({ request, csrf, decision: 'allow' }, { cookie: ada.cookieHeader, origin: host.url })
    expect(answer.status).toBe(303)
    const resumed = await fetch(new URL(answer.headers.get('location')!, host.url), { redirect: 'manual', headers: { cookie: ada.cookieHeader } })
    expect(new URL(resumed.headers.get('location')!).searchParams.get('code')).toBeTruthy()
  })

  it('refuses a missing or foreign Origin, a wrong or another session\'s token, and no session — writing nothing', async () => {
    const grace = await host.signIn('grace')
    const csrf = await consentPageToken()
    const graceToken = await consentPageToken(grace.cookieHeader)
    const before = await storeSnapshot(host.deps)
    for (const [form, headers, status] of [
      [{ request, csrf, decision: 'allow' }, { cookie: ada.cookieHeader }, 403],
      [{ request, csrf, decision: 'allow' }, { cookie: ada.cookieHeader, origin: 'https://rp.example' }, 403],
      [{ request, csrf: 'forged', decision: 'allow' }, { cookie: ada.cookieHeader, origin: host.url }, 403],
      [{ request, csrf: graceToken, decision: 'allow' }, { cookie: ada.cookieHeader, origin: host.url }, 403],
      [{ request: request.replace('openid+cairn%3Arecord', 'openid+cairn%3Averify'), csrf, decision: 'allow' }, { cookie: ada.cookieHeader, origin: host.url }, 403],
      [{ request, csrf, decision: 'allow' }, { origin: host.url }, 401],
    ] as const) {
      expect((await submit(form, headers)).status).toBe(status)
    }
    expect(await storeSnapshot(host.deps)).toBe(before)
  })

  it('sends a refusal back to the client as access_denied', async () => {
    const csrf = await consentPageToken()
    const answer = await submit({ request, csrf, decision: 'deny' }, { cookie: ada.cookieHeader, origin: host.url })
    const location = new URL(answer.headers.get('location')!)
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('state')).toBe('state-1')
  })

  it('sends a signed-out visitor of the consent page to sign in', async () => {
    const page = await fetch(`${host.url}/consent?${request}`, { redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(new URL(page.headers.get('location')!).pathname).toBe('/login')
  })
})

describe('GET /login', () => {
  it('serves the sign-in page with a strict CSP and drops a next on another origin', async () => {
    const page = await fetch(`${host.url}/login?next=${encodeURIComponent('https://evil.example/x')}&login_hint=ada`)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await page.text()
    expect(html).toContain('data-next="/account"') // the foreign next is dropped: the account page instead
    expect(html).toContain('value="ada"')
    expect((await fetch(`${host.url}/assets/cairn-login.js`)).headers.get('content-type')).toMatch(/^text\/javascript/)
  })
})
