/**
 * A person's runtime authority session, opened over HTTP as an SDK opens it: her identity card
 * sealed as her own proof object, a ProofConsent challenge signed by the ID key her device holds,
 * and the application's token. Journeys that execute value or plans start here.
 */
import { expect } from 'vitest'
import { identityHolderOverHttp, sealJsonOverHttp } from '../hosts/cli/id-key-person-test-support.js'
import { openSessionBody, type IdentityHolder, type PortableArtifact } from '../hosts/http/runtime-test-support.js'
import { call, type JourneyServer, type Person } from './journey-server.js'

/** Seals a JSON file as the person's own proof object, and carries it as the runtime does. */
export const sealOwn = (server: JourneyServer, person: Person, filename: string, value: unknown): Promise<PortableArtifact> =>
  sealJsonOverHttp(server.url, person.cookie, filename, value)

/** The person as a plan's owner: her sealed identity card and the ID key that signs for her. */
export const identityHolder = (server: JourneyServer, person: Person): Promise<IdentityHolder> => identityHolderOverHttp(server.url, person)

/** Opens the person's authority session with the application's `token`; answers its wire (the signed envelope is the caller's to verify where it must). */
export async function openAuthoritySession(server: JourneyServer, holder: IdentityHolder, token: string, applicationId: string, scopes: readonly string[]): Promise<{ sessionBindingDigest: string }> {
  const opened = await call(server, 'POST', '/api/sdk/v1/runtime/authority-sessions/open', { token, body: openSessionBody(holder, { applicationId, consent: scopes }) })
  expect(opened.body.error).toBeUndefined()
  expect(opened.status).toBe(200)
  return opened.body.wire as { sessionBindingDigest: string }
}
