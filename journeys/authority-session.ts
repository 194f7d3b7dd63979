/**
 * A person's runtime authority session, opened over HTTP as an SDK opens it: her identity card
 * sealed as her own proof object, a ProofConsent challenge signed by the ID key her device holds,
 * and the application's token. Journeys that execute value or plans start here.
 */
import { createPublicKey, sign as signBytes } from 'node:crypto'
import { expect } from 'vitest'
import { sha256Hex } from '../core/digest/sha256.js'
import { toBase64Url } from '../core/encoding/base64url.js'
import { jwkThumbprint } from '../core/identity/public-key.js'
import { signedChallengeWith, type IdentityHolder, type PortableArtifact } from '../hosts/http/runtime-test-support.js'
import { call, type JourneyServer, type Person } from './journey-server.js'

/** Seals a JSON file as the person's own proof object, and carries it as the runtime does. */
export async function sealOwn(server: JourneyServer, person: Person, filename: string, value: unknown): Promise<PortableArtifact> {
  const form = new FormData()
  form.append('file', new Blob([JSON.stringify(value)], { type: 'application/json' }), filename)
  const sealed = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie: person.cookie } })
  expect(sealed.status).toBe(200)
  const body = (await sealed.json()) as { sealedBytesB64u: string; sourceSha256: string }
  const bytes = Buffer.from(body.sealedBytesB64u, 'base64url')
  return { schema: 'cairn.v124.portable_sealed_artifact', exactBytesB64u: body.sealedBytesB64u, filename, mimeType: 'application/json', artifactSha256: sha256Hex(bytes), payloadSha256: body.sourceSha256 }
}

/** The person as a plan's owner: her sealed identity card and the ID key that signs for her. */
export async function identityHolder(server: JourneyServer, person: Person): Promise<IdentityHolder> {
  const keyId = jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: createPublicKey(person.privateKey).export({ format: 'jwk' }).x! })
  const identityArtifact = await sealOwn(server, person, `${person.username}-identity.json`, { schema: 'cairn.identity_card.v1', username: person.username })
  return {
    userId: person.userId, username: person.username, keyId, identityArtifact,
    seal: (filename, _mimeType, bytes) => sealOwn(server, person, filename, JSON.parse(new TextDecoder().decode(bytes))),
    sign: (bytes) => toBase64Url(signBytes(null, bytes, person.privateKey)),
    challenge: (input) => signedChallengeWith(person.privateKey, keyId, person.username, Date.now(), input),
  }
}

/** The body that opens `holder`'s authority session for `applicationId`, consenting to `scopes`. */
export function openSessionBody(holder: IdentityHolder, applicationId: string, audience: string, scopes: readonly string[]): Record<string, unknown> {
  const { identityArtifact } = holder
  return {
    applicationId, actorSubjectId: holder.userId, artifact: { exactBytesB64u: identityArtifact.exactBytesB64u, digest: identityArtifact.artifactSha256 },
    subjectSourceArtifact: identityArtifact, signedChallenge: holder.challenge({ audience, scopes }), requestedRails: [], requiredNamespaces: [], audience,
  }
}

/** Opens the person's authority session with the application's `token`; answers its wire (the signed envelope is the caller's to verify where it must). */
export async function openAuthoritySession(server: JourneyServer, holder: IdentityHolder, token: string, applicationId: string, scopes: readonly string[]): Promise<{ sessionBindingDigest: string }> {
  const opened = await call(server, 'POST', '/api/sdk/v1/runtime/authority-sessions/open', { token, body: openSessionBody(holder, applicationId, applicationId, scopes) })
  expect(opened.body.error).toBeUndefined()
  expect(opened.status).toBe(200)
  return opened.body.wire as { sessionBindingDigest: string }
}
