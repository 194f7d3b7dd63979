/**
 * Test support: a person signed in over HTTP with an Ed25519 ID key the test holds, so it can sign
 * proof-authority challenges and member consents as their device would, sealing their own proof
 * objects on a running `cairn serve` (the several-hosts tests; journeys/journey-server.ts signs in the same way).
 */
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign as signBytes, type KeyObject } from 'node:crypto'
import { expect } from 'vitest'
import { sha256Hex } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'
import { jwkThumbprint } from '../../core/identity/public-key.js'
import type { OAuthClientConfig } from '../../core/config/deployment-config.js'
import { signedChallengeWith, type IdentityHolder, type PortableArtifact } from '../http/runtime-test-support.js'

/** A person signed in with an Ed25519 ID key the test holds (so it can sign challenges and consents). */
export interface Person {
  readonly username: string
  /** The session cookie a browser would keep. */
  readonly cookie: string
  /** The ID key their device holds (Ed25519). */
  readonly privateKey: KeyObject
  readonly userId: string
}

/** Signs `username` in at `url` (a new username signs up) with a fresh ID key whose proof names `audience` (the deployment's base URL). */
export async function signInWithIdKey(url: string, audience: string, username: string): Promise<Person> {
  const { privateKey } = generateKeyPairSync('ed25519')
  const body = signIdContinueRequest({ username, displayName: username, localUid: `device-${username}` }, { privateKey, challenge: randomBytes(24), createdAt: new Date().toISOString(), audience })
  const response = await fetch(`${url}/api/auth/cairn-id/continue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(200)
  const answer = (await response.json()) as { session: { uid: string } }
  return { username, cookie: /cairn_session=[^;]+/u.exec(response.headers.get('set-cookie') ?? '')![0], privateKey, userId: answer.session.uid }
}

/** Seals a JSON file at `url` as the signed-in person's own proof object, and carries it as the runtime does. */
export async function sealJsonOverHttp(url: string, cookie: string, filename: string, value: unknown): Promise<PortableArtifact> {
  const form = new FormData()
  form.append('file', new Blob([JSON.stringify(value)], { type: 'application/json' }), filename)
  const sealed = await fetch(`${url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie } })
  expect(sealed.status).toBe(200)
  const body = (await sealed.json()) as { sealedBytesB64u: string; sourceSha256: string }
  return {
    schema: 'cairn.v124.portable_sealed_artifact', exactBytesB64u: body.sealedBytesB64u, filename, mimeType: 'application/json',
    artifactSha256: sha256Hex(Buffer.from(body.sealedBytesB64u, 'base64url')), payloadSha256: body.sourceSha256,
  }
}

/** The person as an identity holder: their ID key signs, `url` seals their proof objects, and their identity card is sealed first. */
export async function identityHolderOverHttp(url: string, person: Person): Promise<IdentityHolder> {
  const seal = (filename: string, value: unknown) => sealJsonOverHttp(url, person.cookie, filename, value)
  const keyId = jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: createPublicKey(person.privateKey).export({ format: 'jwk' }).x! })
  const identityArtifact = await seal(`${person.username}-identity.json`, { schema: 'cairn.identity_card.v1', username: person.username })
  return {
    userId: person.userId, username: person.username, keyId, alg: 'EdDSA', identityArtifact,
    seal: (filename, _mimeType, bytes) => seal(filename, JSON.parse(new TextDecoder().decode(bytes))),
    sign: (bytes) => toBase64Url(signBytes(null, bytes, person.privateKey)),
    challenge: (input) => signedChallengeWith(person.privateKey, keyId, person.username, Date.now(), input),
  }
}

/** A confidential first-party application as a deployment file registers it, with the secret it holds. */
export interface ConfidentialApplication {
  readonly clientId: string
  readonly secret: string
  readonly redirectUri: string
}

/** The deployment-file entry of `app` (only the secret's SHA-256 sits in the file). */
export function registeredApplication(app: ConfidentialApplication, name: string): OAuthClientConfig {
  return { clientId: app.clientId, name, redirectUris: [app.redirectUri], clientSecretSha256: sha256Hex(app.secret), firstParty: true }
}

/**
 * The access token `app` obtains at `url` for `person`, as a runtime application must: its own
 * authorization-code + PKCE flow (the person's browser session at the authorization endpoint), the
 * code redeemed at the token endpoint with the application's secret.
 */
export async function applicationTokenOverHttp(url: string, person: { readonly cookie: string }, scopes: readonly string[], app: ConfidentialApplication): Promise<string> {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const query = new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, scope: scopes.join(' '), state: 'app', code_challenge: challenge, code_challenge_method: 'S256' })
  const authorized = await fetch(`${url}/api/oidc/authorize?${query}`, { headers: { cookie: person.cookie }, redirect: 'manual' })
  const code = new URL(authorized.headers.get('location') ?? 'about:blank').searchParams.get('code')
  expect(code, `the authorization of ${app.clientId} answered ${authorized.status}`).not.toBeNull()
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: app.redirectUri, code_verifier: verifier })
  const exchanged = await fetch(`${url}/api/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}` },
    body: form,
  })
  expect(exchanged.status).toBe(200)
  return ((await exchanged.json()) as { access_token: string }).access_token
}
