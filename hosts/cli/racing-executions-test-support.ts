/**
 * Test support: staged executions racing on one participant head across several `cairn serve`
 * processes, over HTTP only, as a runtime application (a confidential client of the deployment
 * file) does it: its token from its own authorization-code + PKCE flow redeemed with its secret,
 * every answer verified with `cairn/runtime-verify` against the JWKS the hosts publish.
 */
import { expect } from 'vitest'
import { sha256Hex } from '../../core/digest/sha256.js'
import { DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY_DIGEST } from '../../core/runtime/domains/domain-records.js'
import { genesisParticipantHead } from '../../core/runtime/participant-heads.js'
import { verifyRuntimeEnvelope } from '../../core/runtime/verify-envelope.js'
import { draftExecution, EXECUTION_SCOPES, SESSION_AUDIENCE, type ExecutionDraft } from '../http/execution-test-support.js'
import { APP, appBasicAuthorization, RUNTIME_APP_SECRETS, runtimeRedirectUri } from '../http/runtime-test-support.js'
import { PKCE } from '../http/oidc-test-support.js'
import { identityHolderOverHttp, sealJsonOverHttp, signInWithIdKey, type Person } from './id-key-person-test-support.js'

/** The deployment file's runtime application: a confidential client, as a server-side application is. */
export const racingApplication = {
  clientId: APP, name: 'Notes', redirectUris: [runtimeRedirectUri(APP)], clientSecretSha256: sha256Hex(RUNTIME_APP_SECRETS[APP]!), firstParty: true,
}

/** The application's access token for `author`: its own authorization-code + PKCE flow, the code redeemed with its client secret. */
async function applicationToken(url: string, author: Person): Promise<string> {
  const redirectUri = runtimeRedirectUri(APP)
  const query = new URLSearchParams({ response_type: 'code', client_id: APP, redirect_uri: redirectUri, scope: EXECUTION_SCOPES.join(' '), state: 'race', code_challenge: PKCE.challenge, code_challenge_method: 'S256' })
  const authorized = await fetch(`${url}/api/oidc/authorize?${query}`, { headers: { cookie: author.cookie }, redirect: 'manual' })
  const code = new URL(authorized.headers.get('location') ?? 'about:blank').searchParams.get('code')
  expect(code, `authorize answered ${authorized.status}`).not.toBeNull()
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri, code_verifier: PKCE.verifier })
  const exchanged = await fetch(`${url}/api/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: appBasicAuthorization(APP) }, body: form })
  expect(exchanged.status).toBe(200)
  return ((await exchanged.json()) as { access_token: string }).access_token
}

/**
 * Two head versions of one participant, each raced by one plan per host: plan n staged on host n and
 * executed concurrently on host n+1. Exactly one commits per version, the others are refused with
 * `head-mismatch` and zero writes, and the verified replay (from every host) holds exactly the committed plans' events.
 */
export async function raceExecutionsAcrossHosts(urls: readonly string[], baseUrl: string): Promise<void> {
  const domain = new URL(baseUrl).host
  const jwks = await (await fetch(`${urls[0]}/api/oidc/jwks`)).json()
  const author = await signInWithIdKey(urls[0]!, baseUrl, 'racer')
  const token = await applicationToken(urls[1 % urls.length]!, author)
  /** Posts to a runtime route on `url` and verifies the signed envelope as the application must. */
  const verified = async (url: string, path: string, body: Record<string, unknown>, audience = APP) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
    const answer = (await response.json()) as Record<string, unknown>
    expect(answer.error, path).toBeUndefined()
    expect(response.status).toBe(200)
    const verdict = await verifyRuntimeEnvelope<Record<string, any>>(answer, { method: 'POST', path, body, applicationId: APP, audience, domain }, { jwks })
    if (!verdict.ok) throw new Error(verdict.errors.join('; '))
    return verdict.wire
  }
  const sealOwn = (n: number) => sealJsonOverHttp(urls[n % urls.length]!, author.cookie, `race-note-${n}.json`, { note: `draft ${n}` })
  const holder = await identityHolderOverHttp(urls[0]!, author)
  const identityArtifact = holder.identityArtifact
  const session = await verified(urls[2 % urls.length]!, '/api/sdk/v1/runtime/authority-sessions/open', {
    applicationId: APP, actorSubjectId: author.userId, artifact: { exactBytesB64u: identityArtifact.exactBytesB64u, digest: identityArtifact.artifactSha256 },
    subjectSourceArtifact: identityArtifact, signedChallenge: holder.challenge({ audience: SESSION_AUDIENCE, scopes: EXECUTION_SCOPES }), requestedRails: [], requiredNamespaces: [], audience: SESSION_AUDIENCE,
  }, SESSION_AUDIENCE)

  const committedKeys: string[] = []
  let head = genesisParticipantHead(APP, 'raced-note')
  let predecessor = identityArtifact
  for (const version of [1, 2]) {
    const candidates = await Promise.all(urls.map((_, n) => sealOwn(version * 10 + n)))
    const drafts: ExecutionDraft[] = candidates.map((candidate, n) => draftExecution({ clock: { now: () => Date.now() } }, {
      applicationId: APP, semanticIdempotencyKey: `race-v${version}-host${n}`,
      members: [{ participantId: 'raced-note', expectedHead: head, predecessor, candidate, owner: holder }],
    }))
    const handles = await Promise.all(drafts.map((draft, n) => verified(urls[n]!, '/api/sdk/v1/execution/stage', { applicationId: APP, plan: draft.plan })))
    const outcomes = await Promise.all(drafts.map((draft, n) => verified(urls[(n + 1) % urls.length]!, '/api/sdk/v1/execution/execute', {
      applicationId: APP, handle: handles[n], authoritySession: session, transitionSet: draft.transitionSet,
    }, SESSION_AUDIENCE)))
    const winners = outcomes.flatMap((outcome, n) => (outcome.status === 'committed' ? [n] : []))
    expect(winners, JSON.stringify(outcomes)).toHaveLength(1)
    for (const [n, outcome] of outcomes.entries()) if (n !== winners[0]) expect(outcome).toMatchObject({ status: 'zero-write', reasonCode: 'head-mismatch', writes: 0 })
    const winner = drafts[winners[0]!]!
    committedKeys.push(winner.plan.semanticIdempotencyKey)
    head = winner.transitionSet.proposedParticipantHeads['raced-note']!
    expect(outcomes[winners[0]!]!.committedHeads).toEqual({ 'raced-note': head })
    predecessor = candidates[winners[0]!]!
  }

  // Every host replays exactly the committed plans' events, in order, ending at the last committed head.
  const replayQuery = { applicationId: APP, domainId: 'notes', afterHead: null, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST }
  for (const url of urls) {
    const replay = await verified(url, '/api/sdk/v1/domains/verified-replay', replayQuery)
    expect(replay).toMatchObject({ status: 'complete' })
    const events = (replay.additions as { exactEventBytesB64u: string }[]).map((addition) => JSON.parse(Buffer.from(addition.exactEventBytesB64u, 'base64url').toString()))
    expect(events).toEqual(committedKeys.map((key) => ({ set: { participant: 'raced-note', key } })))
  }
}
