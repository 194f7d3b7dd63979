/**
 * Test support: staged executions racing on one participant head across several `cairn serve`
 * processes, over HTTP only, as a runtime application (a confidential client of the deployment
 * file) does it: its token from its own authorization-code + PKCE flow redeemed with its secret,
 * every answer verified with `cairn/runtime-verify` against the JWKS the hosts publish.
 */
import { expect } from 'vitest'
import { DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY_DIGEST } from '../../core/runtime/domains/domain-records.js'
import { genesisParticipantHead } from '../../core/runtime/participant-heads.js'
import { verifyRuntimeEnvelope } from '../../core/runtime/verify-envelope.js'
import { draftExecution, EXECUTION_SCOPES, SESSION_AUDIENCE, type ExecutionDraft } from '../http/execution-test-support.js'
import { APP, RUNTIME_APP_SECRETS, runtimeRedirectUri } from '../http/runtime-test-support.js'
import { applicationTokenOverHttp, identityHolderOverHttp, registeredApplication, sealJsonOverHttp, signInWithIdKey, type ConfidentialApplication } from './id-key-person-test-support.js'

const NOTES: ConfidentialApplication = { clientId: APP, secret: RUNTIME_APP_SECRETS[APP]!, redirectUri: runtimeRedirectUri(APP) }

/** The deployment file's runtime application: a confidential client, as a server-side application is. */
export const racingApplication = registeredApplication(NOTES, 'Notes')

/**
 * Two head versions of one participant, each raced by one plan per host: plan n staged on host n and
 * executed concurrently on host n+1. Exactly one commits per version, the others are refused with
 * `head-mismatch` and zero writes, and the verified replay (from every host) holds exactly the committed plans' events.
 */
export async function raceExecutionsAcrossHosts(urls: readonly string[], baseUrl: string): Promise<void> {
  const domain = new URL(baseUrl).host
  const jwks = await (await fetch(`${urls[0]}/api/oidc/jwks`)).json()
  const author = await signInWithIdKey(urls[0]!, baseUrl, 'racer')
  const token = await applicationTokenOverHttp(urls[1 % urls.length]!, author, EXECUTION_SCOPES, NOTES)
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
