/**
 * Unmodified openid-client 6 as the relying party of a listening OIDC test host: discovery as one
 * of the test clients, fresh PKCE values, and one step of a browser following a redirect.
 */
import * as client from 'openid-client'
import { expect } from 'vitest'
import { TEST_CLIENTS, type OidcTestHost } from './oidc-test-support.js'

/** The test host listens on http://127.0.0.1. */
const insecure = { execute: [client.allowInsecureRequests] }

/** @example const config = await discoverAs(host, 'web') */
export function discoverAs(host: OidcTestHost, id: keyof typeof TEST_CLIENTS, metadata: Partial<client.ClientMetadata> = {}): Promise<client.Configuration> {
  const registered = TEST_CLIENTS[id]
  const auth = 'secret' in registered ? client.ClientSecretBasic(registered.secret) : client.None()
  return client.discovery(new URL(host.url), registered.clientId, metadata, auth, insecure)
}

/** A fresh PKCE verifier and challenge, state and nonce. */
export async function pkceValues() {
  const codeVerifier = client.randomPKCECodeVerifier()
  return { codeVerifier, state: client.randomState(), nonce: client.randomNonce(), code_challenge: await client.calculatePKCECodeChallenge(codeVerifier) }
}

/** One browser step with `cookieHeader` (`null`: signed out): expects a 302 and answers its target. */
export async function followRedirect(url: URL | string, cookieHeader: string | null): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual', headers: cookieHeader === null ? {} : { cookie: cookieHeader } })
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location')!, url)
}
