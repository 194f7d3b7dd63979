/**
 * The Universal Runtime's writing operations on a given store and blob store: a proof-authority
 * exchange, an authority session opened, a sealed source published into the blob store's custody
 * (and published again: already-published, nothing written), a refused publication that leaves
 * store and blobs untouched, the namespaces resolved at the new head from the source in custody, and
 * the session closed with its revocation appended. In-process, with the real use cases.
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryEventBus, MemoryKeyStore } from '../../adapters/memory/index.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import type { Principal } from '../../core/auth/principal.js'
import { fromBase64Url, toBase64Url } from '../../core/encoding/base64url.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { ownershipHeadOf, REDUCER_DIGEST, REGISTRY_DIGEST, runtimeUseCases } from '../../core/runtime/index.js'
import { revocationStreamOf } from '../../core/runtime/revocation-head.js'
import { AUTHORITY_SESSIONS, SUBJECT_SOURCES } from '../../core/runtime/runtime-collections.js'
import { subjectStreamOf } from '../../core/runtime/subject-namespaces.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps, UseCase } from '../../core/usecases/use-case.js'
import { APP, createIdentityHolder, runtimeDeployment, type IdentityHolder } from '../../hosts/http/runtime-test-support.js'
import type { BlobStore } from '../../ports/blob-store.js'
import type { Store } from '../../ports/store.js'
import { openBlobFixture, openStoreFixture, type ScenarioOptions } from '../targets.js'

export type RuntimeScenarioOptions = ScenarioOptions

const NOW = Date.parse('2026-06-25T00:00:00.000Z')
const AUDIENCE = 'https://notes.example'
const SCOPES = ['cairn:runtime.session', 'cairn:runtime.publish', 'cairn:runtime.read']

export function describeRuntimeScenario(options: RuntimeScenarioOptions): void {
  describe(`${options.name} runtime scenario`, () => {
    let deps: CoreDeps
    let store: Store
    let blobs: BlobStore
    let ada: IdentityHolder
    let dispose: () => Promise<void>

    beforeAll(async () => {
      const storeFixture = await openStoreFixture(options.store)
      const blobFixture = await openBlobFixture(options.blobs)
      store = storeFixture.store
      blobs = blobFixture.blobs
      deps = {
        store, blobs, clock: new FixedClock(NOW), entropy: new SeededEntropy(`runtime-${options.name}`), events: new MemoryEventBus(), keys: new MemoryKeyStore(),
        config: { baseUrl: 'https://cairn.test', deployment: runtimeDeployment() },
      }
      await store.declare(collections)
      ada = await createIdentityHolder(deps, 'ada')
      dispose = async () => {
        await storeFixture.dispose()
        await blobFixture.dispose()
      }
    })
    afterAll(() => dispose())

    const principal: Principal = { kind: 'bearer', actsAsClient: true, subject: 'usr_ada', clientId: APP, scopes: SCOPES, tokenId: 'tok', businessTier: false }
    const call = async (operation: keyof typeof runtimeUseCases, body: unknown, params: Record<string, string> = {}) => {
      const reply = await (runtimeUseCases[operation] as unknown as UseCase)({ params, query: {}, body, principal: operation === 'exchangeProofAuthority' ? { kind: 'client', clientId: APP } : principal }, deps)
      return E.map((r: { kind: string; body?: unknown }) => (r as { body: { wire?: Record<string, unknown> } & Record<string, unknown> }).body)(reply)
    }
    const ok = async (operation: keyof typeof runtimeUseCases, body: unknown, params: Record<string, string> = {}) => {
      const answer = await call(operation, body, params)
      if (E.isLeft(answer)) throw new Error(`${operation}: ${answer.left.message}`)
      return answer.right
    }

    it('exchanges, opens, publishes idempotently into blob custody, refuses without writing, resolves and closes', async () => {
      const exchanged = await ok('exchangeProofAuthority', { artifact: ada.identityArtifact, challenge: ada.challenge({ audience: APP, scopes: ['cairn:runtime.read'] }), applicationId: APP, scopes: ['cairn:runtime.read'] })
      expect(exchanged).toMatchObject({ refreshable: false, expiresIn: 300, grantedScopes: ['cairn:runtime.read'] })

      const opened = await ok('openAuthoritySession', {
        applicationId: APP, actorSubjectId: ada.userId, artifact: { exactBytesB64u: ada.identityArtifact.exactBytesB64u, digest: ada.identityArtifact.artifactSha256 },
        subjectSourceArtifact: ada.identityArtifact, signedChallenge: ada.challenge({ audience: AUDIENCE, scopes: SCOPES }), requestedRails: [], requiredNamespaces: [], audience: AUDIENCE,
      })
      const session = opened.wire as { authoritySessionHandle: string; sessionBindingDigest: string; revocationHead: string }
      expect((await store.query(AUTHORITY_SESSIONS, { index: 'byExpiresAt', limit: 10 })).items).toHaveLength(1)

      const source = await ada.seal('profile.json', 'application/json', new TextEncoder().encode(JSON.stringify({ namespaces: { profile: { name: 'Ada' } } })))
      const publish = { applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, sourceArtifact: source }
      expect((await ok('publishSealedSource', publish)).wire).toMatchObject({ status: 'published' })
      expect(await blobs.get(source.artifactSha256)).toEqual(fromBase64Url(source.exactBytesB64u))
      const headAfter = await store.streamHead(subjectStreamOf(ada.userId))
      expect((await ok('publishSealedSource', publish)).wire).toMatchObject({ status: 'already-published' })
      expect(await store.streamHead(subjectStreamOf(ada.userId))).toEqual(headAfter)
      expect((await store.query(SUBJECT_SOURCES, { index: 'bySubject', limit: 10 })).items).toHaveLength(1)

      const altered = new Uint8Array(fromBase64Url(source.exactBytesB64u)!)
      altered[3] = altered[3]! ^ 1
      const refused = await call('publishSealedSource', { ...publish, sourceArtifact: { ...source, exactBytesB64u: toBase64Url(altered), artifactSha256: sha256Hex(altered) } })
      expect(E.isLeft(refused)).toBe(true)
      expect(await blobs.has(sha256Hex(altered))).toBe(false)
      expect(await store.streamHead(subjectStreamOf(ada.userId))).toEqual(headAfter)

      const resolved = await ok('resolveNamespaces', {
        applicationId: APP, subjectId: ada.userId, atHead: headAfter!.head, names: ['profile'], expectedAdmittedProofDigest: source.artifactSha256,
        expectedOwnershipHead: ownershipHeadOf(ada.userId, ada.userId), expectedRegistryDigest: REGISTRY_DIGEST, expectedReducerDigest: REDUCER_DIGEST,
      })
      expect(resolved.wire).toMatchObject({ sourceArtifact: source, namespaces: [{ name: 'profile', exactBytesB64u: toBase64Url(new TextEncoder().encode('{"name":"Ada"}')) }] })

      const closed = await ok('closeAuthoritySession', {
        applicationId: APP, authoritySessionHandle: session.authoritySessionHandle, expectedPriorRevocationHead: session.revocationHead, expectedPriorSessionBindingDigest: session.sessionBindingDigest,
      })
      expect(closed.wire).toMatchObject({ status: 'closed', revocationHead: (await store.streamHead(revocationStreamOf(APP)))!.head })
      expect(E.isLeft(await call('publishSealedSource', publish))).toBe(true)
    })
  })
}
