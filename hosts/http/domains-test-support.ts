/**
 * Test support for runtime domains: a runtime test world with a domain, sealed-artifact stand-ins,
 * viewer access keys (WebCrypto, as a client holds them) and an open authority session seeded
 * straight into the Store with the fields `activeSession` reads (core/runtime/authority-sessions.ts).
 */
import { webcrypto } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { createRuntimeTestWorld, APP, type RuntimeTestWorld } from './runtime-test-support.js'
import type { OidcWorldOptions } from './oidc-test-support.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import type { CoreDeps, Reply } from '../../core/usecases/use-case.js'
import { httpStatusOf, type DomainError } from '../../core/errors/domain-error.js'
import { accessKeyHeadOf, grantDomainAccess, p256PublicKey } from '../../core/runtime/domains/access-grants.js'
import { appendDomainAdditions, createDomain, type NewDomainAddition } from '../../core/runtime/domains/append-additions.js'
import { domainCollections, type DomainRef, type PortableSealedArtifact } from '../../core/runtime/domains/domain-records.js'
import { subjectHeadOf } from '../../core/runtime/domains/viewer-session.js'
import { handleKey } from '../../core/runtime/authority-sessions.js'
import { authoritySessions, type AuthoritySessionRecord } from '../../core/runtime/authority-session-record.js'

export { APP }
export const DOMAIN: DomainRef = { applicationId: APP, domainId: 'notes' }
export const READ = ['cairn:runtime.read']

/** A stand-in for exact sealed bytes (the domain functions check only the digests). */
export function artifact(text: string): PortableSealedArtifact {
  const bytes = new TextEncoder().encode(text)
  return { schema: 'cairn.v124.portable_sealed_artifact', exactBytesB64u: toBase64Url(bytes), filename: `${text.slice(0, 20)}.json`, mimeType: 'application/json', artifactSha256: sha256Hex(bytes), payloadSha256: sha256Hex(bytes) }
}

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

/** `n` additions with appendIds `${prefix}${i}` in namespace `namespace`. */
export function additions(n: number, prefix = 'a', namespace = 'notes'): NewDomainAddition[] {
  return Array.from({ length: n }, (_, i) => ({ appendId: `${prefix}${i}`, namespace, eventBytes: bytes(`event ${prefix}${i}`) }))
}

/** The HTTP status a pipeline reply maps to, and its error sentence when refused. */
export function statusOf(reply: E.Either<DomainError, Reply>): number {
  return E.isLeft(reply) ? httpStatusOf(reply.left) : 200
}
export function errorOf(reply: E.Either<DomainError, Reply>): string {
  return E.isLeft(reply) ? reply.left.message : ''
}

export async function unwrap<T>(result: Promise<E.Either<unknown, T>>): Promise<T> {
  const either = await result
  if (E.isLeft(either)) throw new Error(`expected success: ${JSON.stringify(either.left)}`)
  return either.right
}

export interface DomainWorld extends RuntimeTestWorld {
  readonly token: string
}

/** A runtime world with the domain created and a read token for the application. */
export async function createDomainWorld(options: OidcWorldOptions = {}): Promise<DomainWorld> {
  const runtime = await createRuntimeTestWorld(options)
  await runtime.deps.store.declare(domainCollections)
  await unwrap(createDomain(runtime.deps, DOMAIN, artifact('domain source'), 'sub_ada'))
  return { ...runtime, token: await runtime.tokenFor(READ) }
}

/** The user id the world's tokens act for (ada signed in by the runtime world). */
export async function tokenSubject(runtime: RuntimeTestWorld, token: string): Promise<string> {
  const principal = await runtime.world.authenticator.authenticate('Bearer', [], { bearerToken: token })
  if (E.isLeft(principal) || principal.right.kind !== 'bearer') throw new Error('not a bearer token')
  return principal.right.subject
}

/** Seeds an open authority session for the token's person acting as `subjectId`; answers its handle. */
export async function openSession(deps: CoreDeps, ownerUserId: string, subjectId: string, overrides: Partial<AuthoritySessionRecord> = {}): Promise<string> {
  const handle = toBase64Url(deps.entropy.bytes(32))
  const [now, digest] = [deps.clock.now(), '0'.repeat(64)]
  const record: AuthoritySessionRecord = {
    status: 'active', applicationId: APP, audience: APP, ownerUserId, actorSubjectId: subjectId, subjectSourceArtifactSha256: digest, identityArtifactSha256: digest,
    identityKeyId: 'seeded', grantedScopes: [], grantedRails: [], namespaces: [], revocationHead: digest, issuedAtMs: now, expiresAtMs: now + 15 * 60 * 1000,
    issuedAtKaiUPulse: 0, expiresAtKaiUPulse: 0, sessionBindingDigest: digest, runtimeReceiptDigest: digest, closedAtMs: null, closedRevocationHead: null, ...overrides,
  }
  const outcome = await deps.store.commit([authoritySessions.put(handleKey(handle), record, { kind: 'absent' })])
  if (!outcome.ok) throw new Error('session seed failed')
  return handle
}

/** A viewer's access key pair (WebCrypto, as a client makes it) and its public JWK's head. */
export async function accessKeyPair() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])
  const publicJwk = await webcrypto.subtle.exportKey('jwk', pair.publicKey)
  return { privateKey: pair.privateKey as CryptoKey, publicJwk: publicJwk as JsonWebKey, accessKeyHead: accessKeyHeadOf(p256PublicKey(publicJwk as JsonWebKey)!) }
}

/** A viewer with an open session, an access key and a grant to `namespaces` issued by `issuerSubjectId`; the request body it sends. */
export async function viewerWithGrant(runtime: DomainWorld, subjectId: string, namespaces: readonly string[], issuerSubjectId = 'sub_ada') {
  const ownerUserId = await tokenSubject(runtime, runtime.token)
  const session = await openSession(runtime.deps, ownerUserId, subjectId)
  const key = await accessKeyPair()
  const grant = await unwrap(grantDomainAccess(runtime.deps, DOMAIN, {
    issuerSubjectId, viewerSubjectId: subjectId, namespaces, accessKeyJwk: key.publicJwk, accessGrantSourceArtifact: artifact(`grant for ${subjectId}`), viewerSubjectSourceArtifact: artifact(`subject ${subjectId}`),
  }))
  const body = (afterHead: string | null) => ({
    applicationId: APP, domainId: DOMAIN.domainId, afterHead, authoritySessionHandle: session, accessGrantHandle: grant.accessGrantHandle,
    expectedViewerSubjectId: subjectId, expectedViewerSubjectHead: '', expectedGrantHead: grant.grantHead,
  })
  const subjectHead = await subjectHeadOf(runtime.deps, subjectId)
  return {
    session, key, grant, subjectHead,
    body: (afterHead: string | null = null) => ({ ...body(afterHead), expectedViewerSubjectHead: subjectHead }),
    expectation: { applicationId: APP, domainId: DOMAIN.domainId, viewerSubjectId: subjectId, viewerSubjectHead: subjectHead, grantHead: grant.grantHead, accessKeyHead: key.accessKeyHead },
  }
}

export { appendDomainAdditions }
