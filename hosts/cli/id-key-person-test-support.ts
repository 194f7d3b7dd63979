/**
 * Test support: a person signed in over HTTP with an Ed25519 ID key the test holds, so it can sign
 * proof-authority challenges and member consents as their device would, sealing their own proof
 * objects on a running `cairn serve` (the several-hosts tests; journeys/journey-server.ts signs in the same way).
 */
import { createPublicKey, generateKeyPairSync, randomBytes, sign as signBytes, type KeyObject } from 'node:crypto'
import { expect } from 'vitest'
import { sha256Hex } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'
import { jwkThumbprint } from '../../core/identity/public-key.js'
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
    userId: person.userId, username: person.username, keyId, identityArtifact,
    seal: (filename, _mimeType, bytes) => seal(filename, JSON.parse(new TextDecoder().decode(bytes))),
    sign: (bytes) => toBase64Url(signBytes(null, bytes, person.privateKey)),
    challenge: (input) => signedChallengeWith(person.privateKey, keyId, person.username, Date.now(), input),
  }
}
