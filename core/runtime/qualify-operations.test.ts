/**
 * Granted scopes and operational qualification, through the real bearer boundary: what the token
 * holds, what the deployment serves and live port health decide the report, and the report is a
 * signed envelope the client verifier accepts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { BlobStore } from '../../ports/blob-store.js'
import { APP, createRuntimeTestWorld, runtimeDeployment, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')

let runtime: RuntimeTestWorld
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
})

interface Report {
  wire: { applicationId: string; requestedOperations: string[]; results: { operation: string; status: string; reasonCode: string | null; retry: boolean; dependencyHealth: Record<string, string>; actualGrantedScopes: string[] }[]; reportDigest: string }
}

async function qualify(operations: string[], scopes = ['cairn:runtime.read', 'cairn:record'], token?: string) {
  const body = { applicationId: APP, operations }
  const reply = await runtime.call('qualifyOperations', { body, token: token ?? await runtime.tokenFor(scopes) })
  const envelope = bodyOf<Report>(reply)
  const verdict = await verifyRuntimeEnvelope(envelope, { method: 'POST', path: '/api/sdk/v1/runtime/qualify', body, applicationId: APP, audience: APP, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })
  expect(verdict.ok).toBe(true)
  return new Map(envelope.wire.results.map((result) => [result.operation, result]))
}

describe('GET /api/sdk/v1/auth/granted-scopes', () => {
  it('answers exactly the scopes the application\'s token carries', async () => {
    const token = await runtime.tokenFor(['cairn:runtime.read', 'cairn:record'])
    expect(bodyOf(await runtime.call('getGrantedScopes', { token }))).toEqual({
      ok: true, schema: 'cairn.granted_scopes.v1', applicationId: APP, grantedScopes: ['cairn:runtime.read', 'cairn:record'],
    })
  })

  it('is 401 without a token and 403 for a client whose id cannot be a runtime application', async () => {
    expect(await runtime.call('getGrantedScopes')).toEqual(E.left(expect.objectContaining({ _tag: 'Unauthenticated' })))
    const token = await runtime.agentTokenFor(['cairn:runtime.read'], 'Not_An_App')
    expect(await runtime.call('getGrantedScopes', { token })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
  })
})

describe('POST /api/sdk/v1/runtime/qualify', () => {
  it('decides from the token\'s scopes and what this deployment serves', async () => {
    const results = await qualify(['getJwks', 'qualifyOperations', 'connectRecord', 'stageExecution', 'createAgentToken', 'noSuchOperation'], ['cairn:runtime.read'])
    expect(results.get('getJwks')).toMatchObject({ status: 'available', reasonCode: null, retry: false, dependencyHealth: { store: 'available', keys: 'available' } })
    expect(results.get('qualifyOperations')).toMatchObject({ status: 'available', actualGrantedScopes: ['cairn:runtime.read'] })
    expect(results.get('createAgentToken')).toMatchObject({ status: 'unavailable', reasonCode: 'scope-not-granted', retry: false })
    expect(results.get('noSuchOperation')).toMatchObject({ status: 'unavailable', reasonCode: 'operation-unknown' })
  })

  it('reports the ProofConsent exchange available without any scope, and session operations only with cairn:runtime.session', async () => {
    const results = await qualify(['exchangeProofAuthority', 'openAuthoritySession', 'publishSealedSource'], ['cairn:runtime.read'])
    expect(results.get('exchangeProofAuthority')).toMatchObject({ status: 'available', reasonCode: null })
    expect(results.get('openAuthoritySession')).toMatchObject({ status: 'unavailable', reasonCode: 'scope-not-granted' })
    expect(results.get('publishSealedSource')).toMatchObject({ status: 'unavailable', reasonCode: 'scope-not-granted', dependencyHealth: { store: 'available', keys: 'available', blobs: 'available' } })
  })

  it('reports the exchange unavailable to a public application, which holds no secret to call it with', async () => {
    // Notes registered as a public client (no secret) that admits its users' agent tokens
    const deployment = runtimeDeployment({ agentTokensActAsApplication: true })
    const clients = (deployment.clients ?? []).map(({ clientSecretSha256: _secret, ...client }) => client)
    runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0), deployment: { ...deployment, clients } })
    const results = await qualify(['exchangeProofAuthority', 'getJwks'], [], await runtime.agentTokenFor(['cairn:runtime.read']))
    expect(results.get('exchangeProofAuthority')).toMatchObject({ status: 'unavailable', reasonCode: 'scope-not-granted' })
    expect(results.get('getJwks')).toMatchObject({ status: 'available' })
  })

  it('reports a broken port as unavailable for the operations that need it, and recovers when it heals', async () => {
    const blobs = runtime.deps.blobs as BlobStore & { has: BlobStore['has'] }
    const healthy = blobs.has.bind(blobs)
    blobs.has = async () => { throw new PortUnavailableError('BlobStore', 'disk gone') }
    const broken = await qualify(['getJwks'])
    expect(broken.get('getJwks')).toMatchObject({ status: 'available' }) // reads no blobs
    const contract = (await import('../contract/operations/index.js')).operationsById
    const blobReader = [...contract.values()].find((op) => op.request.kind === 'multipart')!.operationId
    const needingBlobs = (await qualify([blobReader])).get(blobReader)!
    expect(needingBlobs.dependencyHealth.blobs ?? 'not probed').toBe('unavailable')
    blobs.has = healthy
    expect((await qualify(['getJwks'])).get('getJwks')!.dependencyHealth).toEqual({ store: 'available', keys: 'available' })
  })

  it('reports a slow port as degraded', async () => {
    const clock = runtime.deps.clock as FixedClock
    const store = runtime.deps.store
    const streamHead = store.streamHead.bind(store)
    store.streamHead = async (stream) => {
      if (stream === 'health.probe') clock.advance(800)
      return streamHead(stream)
    }
    const results = await qualify(['getJwks'])
    expect(results.get('getJwks')).toMatchObject({ status: 'degraded', reasonCode: 'dependency-degraded', retry: true, dependencyHealth: { store: 'degraded' } })
  })

  it('refuses a body naming another application than the token\'s, and a token without cairn:runtime.read', async () => {
    const token = await runtime.tokenFor(['cairn:runtime.read'])
    expect(await runtime.call('qualifyOperations', { body: { applicationId: 'org.other.app', operations: [] }, token })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
    const weak = await runtime.tokenFor(['cairn:record'])
    expect(await runtime.call('qualifyOperations', { body: { applicationId: APP, operations: [] }, token: weak })).toEqual(E.left(expect.objectContaining({ _tag: 'Forbidden' })))
  })
})
