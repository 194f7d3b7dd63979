/**
 * `POST /api/sdk/v1/sources/publish`: exact sealed bytes into content-addressed custody. Under an
 * open authority session whose consent covers `cairn:runtime.publish`, the bytes must be a proof
 * object of the session's person that this deployment verifies — checked before custody. The bytes
 * go to the BlobStore (content addressing makes a second put free), then ONE commit appends the
 * publication to the subject's stream (which moves the subject's head and the namespaces the
 * source defines), records the source for idempotency and applies a `public-recipient` consent.
 * The same bytes again answer `already-published` and write nothing. The answer is coordination
 * only: the bytes stay the authority.
 */
import * as E from 'fp-ts/lib/Either.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { conflict, forbidden, invalidInput, unprocessable, type DomainError } from '../errors/domain-error.js'
import { concatBytes } from '../proof/bytes.js'
import { openArtifact } from '../proof/open-artifact.js'
import type { Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { callerSession, type AuthoritySessionRecord } from './authority-sessions.js'
import { verifyOwnedArtifact } from './proof-consent.js'
import { revocationHeadOf } from './revocation-head.js'
import { PUBLIC_RECIPIENT_NAMESPACE, parseRecipientConsent, recipientAliases, type RecipientAliasRecord } from './recipient-aliases.js'
import { subjectSources, type SourceRecord } from './subject-source-record.js'
import { signEnvelope } from './signed-envelope.js'
import { reduceSource, subjectStreamOf, type SubjectPublication } from './subject-namespaces.js'

type Result = {
  readonly schema: 'cairn.v124.sealed_source_publication_result'
  readonly status: 'published' | 'already-published'
  readonly sourceKind: string
  readonly artifactSha256: string
  readonly sourceBindingDigest: string
  readonly authority: typeof RUNTIME_AUTHORITY
}

const sourceKey = (subjectId: string, artifactSha256: string): string => sha256Hex(`${subjectId}\n${artifactSha256}`)

/** @example await publishSealedSource({ body: { applicationId, authoritySessionHandle, sourceArtifact }, principal: bearer, … }, deps) */
export const publishSealedSource: UseCaseFor<'publishSealedSource'> = async (request, deps) => {
  const body = request.body
  const bound = await callerSession(deps, request.principal, body)
  if (E.isLeft(bound)) return bound
  const { session } = bound.right
  const held = session.record
  if (!held.grantedScopes.includes('cairn:runtime.publish')) return E.left(forbidden('The authority session\'s consent does not cover publishing (cairn:runtime.publish)'))

  const artifact = body.sourceArtifact
  const bytes = fromBase64Url(artifact.exactBytesB64u)
  if (!bytes || sha256Hex(bytes) !== artifact.artifactSha256) return E.left(invalidInput('sourceArtifact.artifactSha256 must be the SHA-256 of sourceArtifact.exactBytesB64u'))
  const key = sourceKey(held.actorSubjectId, artifact.artifactSha256)
  const existing = await subjectSources.get(deps.store, key)
  if (existing) return answer(deps, request, held, resultOf('already-published', existing.value))

  const verified = await verifyOwnedArtifact(deps, bytes, 'The source artifact')
  if (E.isLeft(verified)) return verified
  if (verified.right.ownerUserId !== held.ownerUserId) return E.left(forbidden('The source artifact is sealed for another person than the session\'s'))
  if (verified.right.payloadSha256 !== artifact.payloadSha256) return E.left(unprocessable('sourceArtifact.payloadSha256 is not the SHA-256 of the payload the proof covers'))
  const opened = openArtifact(bytes)
  if (E.isLeft(opened)) return E.left(unprocessable(opened.left.error))
  const reduced = reduceSource(concatBytes(...opened.right.payloadParts), verified.right.mediaType)
  if (typeof reduced === 'string') return E.left(unprocessable(`The source cannot be reduced: ${reduced}`))
  const recipientBytes = reduced.namespaces[PUBLIC_RECIPIENT_NAMESPACE]
  const recipient = recipientBytes === undefined ? undefined : parseRecipientConsent(JSON.parse(new TextDecoder().decode(fromBase64Url(recipientBytes))))
  if (recipient && E.isLeft(recipient)) return E.left(unprocessable(`The source's ${recipient.left}`))

  await deps.blobs.put(bytes) // custody first: content-addressed, so an unused copy is harmless and a retry is free
  const now = deps.clock.now()
  const stream = subjectStreamOf(held.actorSubjectId)
  const priorHead = (await deps.store.streamHead(stream))?.head ?? null
  const publication: SubjectPublication = {
    schema: 'cairn.v124.subject_source_publication', subjectId: held.actorSubjectId, ownerUserId: held.ownerUserId, applicationId: held.applicationId,
    sourceKind: reduced.sourceKind, artifactSha256: artifact.artifactSha256, payloadSha256: verified.right.payloadSha256,
    filename: artifact.filename, mimeType: artifact.mimeType, namespaces: reduced.namespaces, publishedAtMs: now,
  }
  const head = chainHead(priorHead, entryDigestOf(publication))
  const sourceBindingDigest = sha256OfJson({
    schema: 'cairn.v124.sealed_source_binding', applicationId: held.applicationId, subjectId: held.actorSubjectId, artifactSha256: artifact.artifactSha256,
    payloadSha256: verified.right.payloadSha256, sourceKind: reduced.sourceKind, sessionBindingDigest: held.sessionBindingDigest, head,
  })
  const record: SourceRecord = { subjectId: held.actorSubjectId, artifactSha256: artifact.artifactSha256, sourceKind: reduced.sourceKind, sourceBindingDigest, head, publishedAtMs: now }
  const aliasWrites = recipient === undefined ? E.right([]) : await recipientWrites(deps, held.actorSubjectId, E.isRight(recipient) ? recipient.right : undefined, now, head)
  if (E.isLeft(aliasWrites)) return aliasWrites
  const writes: Write[] = [
    { kind: 'append', stream, value: publication, expectHead: priorHead },
    subjectSources.put(key, record, { kind: 'absent' }),
    ...aliasWrites.right,
  ]
  const envelope = await signed(deps, request, held, resultOf('published', record))
  const outcome = await deps.store.commit(writes)
  if (!outcome.ok) {
    const winner = await subjectSources.get(deps.store, key)
    if (winner) return answer(deps, request, held, resultOf('already-published', winner.value))
    return E.left(conflict('The subject changed while the source was being published; nothing was written, publish again'))
  }
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}

/** The alias writes of a consent (or its withdrawal): this subject's other aliases go; an alias another subject holds is refused. */
async function recipientWrites(deps: CoreDeps, subjectId: string, consent: Omit<RecipientAliasRecord, 'subjectId' | 'consentedAtMs' | 'head'> | undefined, now: number, head: string): Promise<E.Either<DomainError, Write[]>> {
  const mine = (await deps.store.query(recipientAliases.name, { index: 'bySubject', equals: [subjectId], limit: 100 })).items
  const writes: Write[] = mine
    .filter((doc) => doc.key !== consent?.alias)
    .map((doc) => ({ kind: 'delete', collection: recipientAliases.name, key: doc.key, expect: { kind: 'version', version: doc.version } }))
  if (consent) {
    const taken = await recipientAliases.get(deps.store, consent.alias)
    if (taken && taken.value.subjectId !== subjectId) return E.left(conflict(`The alias ${consent.alias} is consented by someone else`))
    const record: RecipientAliasRecord = { ...consent, subjectId, consentedAtMs: now, head }
    writes.push(recipientAliases.put(consent.alias, record, unchangedSince(taken?.version ?? null)))
  }
  return E.right(writes)
}

function resultOf(status: Result['status'], record: SourceRecord): Result {
  return { schema: 'cairn.v124.sealed_source_publication_result', status, sourceKind: record.sourceKind, artifactSha256: record.artifactSha256, sourceBindingDigest: record.sourceBindingDigest, authority: RUNTIME_AUTHORITY }
}

async function signed(deps: CoreDeps, request: Parameters<typeof publishSealedSource>[0], held: AuthoritySessionRecord, result: Result) {
  return signEnvelope(deps, 'cairn.v124.signed_sealed_source_publication_envelope', result, {
    operationId: 'publishSealedSource', params: request.params, body: request.body, applicationId: held.applicationId, audience: held.audience,
    revocationHead: await revocationHeadOf(deps, held.applicationId),
  })
}

async function answer(deps: CoreDeps, request: Parameters<typeof publishSealedSource>[0], held: AuthoritySessionRecord, result: Result) {
  return E.right(json(await signed(deps, request, held, result), { 'cache-control': 'no-store' }))
}
