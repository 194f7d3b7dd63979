/**
 * A real bearer token for scenario tests: a new person signs in with an ID proof and issues
 * themselves an agent token with the given scopes (core/oidc agent tokens).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'

let people = 0

/** @example const token = await issueBearerToken(call, BASE_URL, NOW, ['cairn:record']) */
export async function issueBearerToken(
  call: (path: string, init?: RequestInit) => Promise<Response>,
  audience: string,
  nowMs: number,
  scopes: readonly string[],
  /** A name chosen by the test (a Business-tier account, say); otherwise a new random one. */
  chosenUsername?: string,
): Promise<{ readonly accessToken: string; readonly userId: string }> {
  people += 1
  const username = chosenUsername ?? `bearer${people}${randomBytes(3).toString('hex')}`
  const body = signIdContinueRequest({ username, displayName: username, localUid: `device-${username}` }, {
    privateKey: generateKeyPairSync('ed25519').privateKey, challenge: randomBytes(24), createdAt: new Date(nowMs).toISOString(), audience,
  })
  const signedIn = await call('/api/auth/cairn-id/continue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`)
  const { session } = (await signedIn.json()) as { session: { uid: string } }
  const cookie = /cairn_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!
  const created = await call('/api/oidc/agent-tokens', {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: `cairn_session=${cookie}` },
    body: JSON.stringify({ clientId: 'ci', scopes, label: 'test' }),
  })
  if (created.status !== 200) throw new Error(`agent token failed: ${created.status} ${await created.text()}`)
  return { accessToken: ((await created.json()) as { accessToken: string }).accessToken, userId: session.uid }
}
