/**
 * Offline payment notes. Minting moves value from the minter's wallet to `notes:outstanding` and
 * produces a sealed proof object (core/proof, format `cairn.proof.v2`, JSON carrier) whose payload
 * names the note; the seal's record and transparency-log leaf are sequenced in the same commit as
 * the movement. Whoever holds the exact sealed bytes holds the value, like cash: claiming verifies
 * them offline against this deployment's published keys and log, and moves the value from
 * `notes:outstanding` to the claimer's wallet exactly once (the note's version guards the commit).
 */
import { NoteClaimRequest, NoteMintRequest } from '../contract/accepted-bodies.js'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec, Json, Write } from '../../ports/store.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex } from '../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../encoding/base64url.js'
import { conflict, invalidInput, notFound, unprocessable, type DomainError } from '../errors/domain-error.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { getIdentity } from '../identity/identities.js'
import { toHex } from '../proof/bytes.js'
import { carriers } from '../proof/carriers/index.js'
import { openArtifact } from '../proof/open-artifact.js'
import { assembleSealed, prepareSeal, signStatement, type PreparedSeal } from '../proof/seal.js'
import { PROOF_SIGNING_ALG } from '../proof/seal-artifact.js'
import { sealByCode, sealRecordWrite, type SealRecord } from '../proof/seal-records.js'
import { serviceTrust } from '../proof/service-trust.js'
import { verifyArtifact } from '../proof/verify.js'
import type { ProofSignature, ProofStatement } from '../proof/format.js'
import { awaitInclusion } from '../tlog/inclusion.js'
import { logOrigin } from '../tlog/log-identity.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import { nullableString, typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { fromDecimal, parseMinorUnits, toDecimal, UnitCodec, type Unit } from './amount.js'
import { NOTES_OUTSTANDING, walletAccount } from './accounts.js'
import { idempotencyClaim } from './idempotency.js'
import { executeMovement, refusal, type MovementResult } from './movement.js'
import { eventAmounts, type PublishedWalletEvent } from './wallet-feed.js'

export const VALUE_NOTES = 'value.notes'

export const NOTE_SCHEMA = 'cairn.wallet_note.v1'
/** A note stays claimable by anyone for 30 days unless the minter chooses otherwise (1 hour to 365 days). */
export const DEFAULT_NOTE_LIFETIME_SECONDS = 30 * 24 * 60 * 60
export const MAX_NOTE_LIFETIME_SECONDS = 365 * 24 * 60 * 60
export const MIN_NOTE_LIFETIME_SECONDS = 60 * 60
/** Sealed notes are small; anything larger is not one of ours. */
export const MAX_NOTE_BYTES = 64 * 1024

/** The note's payload: what the sealed bytes say, verifiable offline. */
export interface NotePayload {
  readonly schema: typeof NOTE_SCHEMA
  readonly noteId: string
  readonly unit: Unit
  readonly amount: string
  readonly issuer: string
  readonly mintedAt: string
  readonly expiresAt: string
}

/**
 * A minted note. `payloadB64u` holds the exact payload bytes (canonical JSON of NotePayload) that
 * the seal `sealCode` proves; `sealedB64u` the exact sealed bytes, once the seal's log inclusion is
 * in (written right after the mint).
 */
const NoteRecordCodec = t.readonly(t.type({
  noteId: t.string, ownerUserId: t.string, unit: UnitCodec, amount: t.string, status: t.keyof({ minted: null, claimed: null }), createdAt: t.string, expiresAt: t.string,
  payloadB64u: t.string, payloadSha256: t.string, sealCode: t.string, sealedB64u: nullableString, sealedSha256: nullableString,
  mintEntryId: t.string, claimEntryId: nullableString, claimedByUserId: nullableString, claimedAt: nullableString,
}))
export type NoteRecord = t.TypeOf<typeof NoteRecordCodec>

export const valueNotes = typedCollection({ name: VALUE_NOTES, indexes: [{ name: 'byOwner', fields: ['ownerUserId', 'createdAt'] }] }, NoteRecordCodec)
export const valueNotesCollection: CollectionSpec = valueNotes.spec

const noteFileName = (noteId: string) => `cairn-note-${noteId}.json`
export const downloadPathOf = (noteId: string) => `/api/connect/payments/notes/${noteId}/download`

/** The WalletNote shape of the contract. */
export function walletNoteOf(record: NoteRecord) {
  return {
    noteId: record.noteId,
    status: record.status,
    createdAt: record.createdAt,
    ...eventAmounts(record.unit, fromDecimal(record.amount)),
    ...(record.claimedAt !== null ? { claimedAt: record.claimedAt } : {}),
    downloadPath: downloadPathOf(record.noteId),
  }
}

/** Mint a note of `amount` from `userId`'s wallet; answers the WalletNoteResponse body. */
export async function mintNote(deps: CoreDeps, userId: string, rawBody: unknown): Promise<Either<DomainError, { body: Json; replayed: boolean }>> {
  const decoded = NoteMintRequest.decode(rawBody ?? {})
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  const body = decoded.right
  const amount = parseMinorUnits(body.amount, body.unit)
  if (!amount.ok) return E.left(invalidInput(amount.error))
  const lifetime = body.expiresInSeconds ?? DEFAULT_NOTE_LIFETIME_SECONDS
  if (!Number.isSafeInteger(lifetime) || lifetime < MIN_NOTE_LIFETIME_SECONDS || lifetime > MAX_NOTE_LIFETIME_SECONDS) {
    return E.left(invalidInput(`expiresInSeconds must be a whole number from ${MIN_NOTE_LIFETIME_SECONDS} to ${MAX_NOTE_LIFETIME_SECONDS}`))
  }
  const claim = body.idempotencyKey === undefined ? undefined : idempotencyClaim('note-mint', userId, body.idempotencyKey, body)
  if (claim && E.isLeft(claim)) return claim
  const identity = await getIdentity(deps, userId)
  if (!identity) return E.left(notFound('The token\'s owner has no identity on this deployment'))

  const now = deps.clock.now()
  const noteId = `note_${toBase64Url(deps.entropy.bytes(16))}`
  const payload: NotePayload = {
    schema: NOTE_SCHEMA, noteId, unit: body.unit, amount: toDecimal(amount.amount), issuer: deps.config.baseUrl,
    mintedAt: new Date(now).toISOString(), expiresAt: new Date(now + lifetime * 1000).toISOString(),
  }
  const payloadBytes = canonicalJsonBytes(payload)
  const code = toHex(deps.entropy.bytes(10))
  const prepared = prepareSeal({
    payload: payloadBytes, fileName: noteFileName(noteId), mediaType: 'application/json', sealKind: 'proof-object',
    owner: { userId, username: identity.record.username }, createdAtMs: now, code, slug: `note-${code.slice(0, 8)}`,
    baseUrl: deps.config.baseUrl, logOrigin: logOrigin(deps.config.baseUrl),
  })
  if (E.isLeft(prepared)) throw new Error(`A note payload could not be sealed: ${prepared.left}`)
  const signature = await signStatement(prepared.right.statementBytes, await deps.keys.current(PROOF_SIGNING_ALG, 'proof'))
  const seal: SealRecord = {
    code, slug: prepared.right.statement.bundle.slug, sha256: prepared.right.statement.payload.sha256, statementSha256: prepared.right.leaf.statementSha256,
    sealKind: 'proof-object', ownerUserId: userId, createdAtMs: now, statement: prepared.right.statement, signatures: [signature],
  }
  const record = (mintEntryId: string): NoteRecord => ({
    noteId, ownerUserId: userId, unit: body.unit, amount: payload.amount, status: 'minted', createdAt: payload.mintedAt, expiresAt: payload.expiresAt,
    payloadB64u: toBase64Url(payloadBytes), payloadSha256: sha256Hex(payloadBytes), sealCode: code, sealedB64u: null, sealedSha256: null,
    mintEntryId, claimEntryId: null, claimedByUserId: null, claimedAt: null,
  })

  const result = await executeMovement(deps, {
    ...(claim ? { idempotency: claim.right } : {}),
    plan: async () => E.right({
      kind: 'note_mint', unit: body.unit, amount: amount.amount, debit: walletAccount(userId), credit: NOTES_OUTSTANDING, actorUserId: userId,
      publish: { kind: 'note_mint', fromUserId: userId, toUserId: null, inReply: true },
      leaves: [prepared.right.leaf],
      alsoWrite: (entry) => [sealRecordWrite(seal), noteWrite(record(entry.entryId), null)],
      reply: ({ entry }) => ({ ok: true, note: walletNoteOf(record(entry.entryId)) }),
    }),
  })
  if (E.isLeft(result)) return result
  const outcome: MovementResult = result.right
  if (outcome._tag === 'Refusal') return E.left(unprocessable(outcome.message))
  if (outcome._tag === 'replayed') return E.right({ body: outcome.saved.reply, replayed: true })
  // Sealed bytes need the seal leaf's inclusion receipt: complete them now (download heals a crash here).
  await completeSeal(deps, noteId, prepared.right, [signature], outcome.leafIndexes[1]).catch(() => undefined)
  return E.right({ body: outcome.reply, replayed: false })
}

function noteWrite(record: NoteRecord, version: number | null): Write {
  return valueNotes.put(record.noteId, record, unchangedSince(version))
}

/** Assemble and store the exact sealed bytes once; the first stored bytes are the note forever. */
async function completeSeal(deps: CoreDeps, noteId: string, prepared: Pick<PreparedSeal, 'carrier' | 'payload' | 'statement'>, signatures: readonly ProofSignature[], leafIndex: number | undefined): Promise<NoteRecord | undefined> {
  const index = leafIndex ?? (await findSealLeaf(deps, sha256Hex(canonicalJsonBytes(prepared.statement))))
  if (index === undefined) return undefined
  const receipt = await awaitInclusion(deps, index)
  const { bytes } = assembleSealed(prepared, signatures, receipt)
  const doc = await valueNotes.get(deps.store, noteId)
  if (!doc) return undefined
  const current = doc.value
  if (current.sealedB64u !== null) return current
  const sealed: NoteRecord = { ...current, sealedB64u: toBase64Url(bytes), sealedSha256: sha256Hex(bytes) }
  const outcome = await deps.store.commit([noteWrite(sealed, doc.version)])
  if (outcome.ok) return sealed
  return (await valueNotes.get(deps.store, noteId))?.value
}

/** After a crash between the mint and its sealed bytes: find the seal's leaf in the log. */
async function findSealLeaf(deps: CoreDeps, statementSha256: string): Promise<number | undefined> {
  let after: string | undefined
  for (;;) {
    const page = await deps.store.readStream<{ kind: string; statementSha256?: string }>(LOG_LEAF_STREAM, { limit: 1000, ...(after ? { after } : {}) })
    const hit = page.items.find((entry) => entry.value.statementSha256 === statementSha256)
    if (hit) return hit.sequence - 1
    if (page.nextCursor === null || page.items.length === 0) return undefined
    after = page.nextCursor
  }
}

/** The exact sealed bytes of the owner's note (completing them if the mint was interrupted). */
export async function downloadNote(deps: CoreDeps, userId: string, noteId: string): Promise<Either<DomainError, Json>> {
  let record = (await valueNotes.get(deps.store, noteId))?.value
  if (!record || record.ownerUserId !== userId) return E.left(notFound('No note with this noteId is yours'))
  if (record.sealedB64u === null) {
    const seal = await sealByCode(deps, record.sealCode)
    if (!seal) return E.left(conflict('The note is still being sealed; try again in a moment'))
    const statement: ProofStatement = seal.statement
    record = (await completeSeal(deps, noteId, { carrier: carriers[statement.carrier], payload: fromBase64Url(record.payloadB64u)!, statement }, seal.signatures, undefined)) ?? record
    if (record.sealedB64u === null) return E.left(conflict('The note is still being sealed; try again in a moment'))
  }
  const bytes = fromBase64Url(record.sealedB64u)!
  return E.right({ ok: true, noteId, filename: noteFileName(noteId), mimeType: 'application/json', exactBytesB64u: record.sealedB64u, sha256: record.sealedSha256, byteLength: bytes.length })
}

/** Claim the note whose exact sealed bytes are `noteB64u` into `userId`'s wallet. */
export async function claimNote(deps: CoreDeps, userId: string, rawBody: unknown): Promise<Either<DomainError, { note: NoteRecord; event: PublishedWalletEvent | null }>> {
  const decoded = NoteClaimRequest.decode(rawBody ?? {})
  if (E.isLeft(decoded)) return E.left(invalidInput('note is required: the base64url of the exact sealed note bytes'))
  if (decoded.right.note.length > MAX_NOTE_BYTES * 2) return E.left(invalidInput(`note must be at most ${MAX_NOTE_BYTES} bytes`))
  const bytes = fromBase64Url(decoded.right.note)
  if (!bytes || bytes.length === 0) return E.left(invalidInput('note must be base64url (RFC 4648 §5, unpadded) of the exact sealed note bytes'))
  const opened = openArtifact(bytes)
  if (E.isLeft(opened)) return E.left(unprocessable(`The note is not a sealed artifact: ${opened.left.error}`))
  if (opened.right.proof.statement.issuer.baseUrl !== deps.config.baseUrl) return E.left(unprocessable('The note was issued by another deployment; claim it there'))
  const verdict = await verifyArtifact(bytes, await serviceTrust(deps))
  if (!verdict.ok) return E.left(unprocessable(`The note does not verify: ${verdict.errors.join('; ')}`))
  let payload: NotePayload
  try {
    payload = JSON.parse(new TextDecoder().decode(opened.right.payload)) as NotePayload
  } catch {
    return E.left(unprocessable('The sealed file is not a note'))
  }
  if (payload.schema !== NOTE_SCHEMA || typeof payload.noteId !== 'string') return E.left(unprocessable('The sealed file is not a note'))
  const payloadSha256 = sha256Hex(opened.right.payload)

  let claimed: NoteRecord | undefined
  const result = await executeMovement(deps, {
    plan: async () => {
      const doc = await valueNotes.get(deps.store, payload.noteId)
      const record = doc?.value
      if (!doc || !record || record.payloadSha256 !== payloadSha256) return E.left(unprocessable('The note is not one this deployment minted'))
      if (record.status === 'claimed') return E.left(refusal('already_claimed', 'This note was already claimed; a note claims once'))
      if (Date.parse(record.expiresAt) <= deps.clock.now() && record.ownerUserId !== userId) {
        return E.left(refusal('expired', 'This note expired; only its minter can still reclaim it'))
      }
      return E.right({
        kind: 'note_claim', unit: record.unit, amount: fromDecimal(record.amount), debit: NOTES_OUTSTANDING, credit: walletAccount(userId), actorUserId: userId,
        publish: { kind: 'note_claim', fromUserId: null, toUserId: userId },
        alsoWrite: (entry) => {
          claimed = { ...record, status: 'claimed', claimEntryId: entry.entryId, claimedByUserId: userId, claimedAt: entry.createdAt }
          return [noteWrite(claimed, doc.version)]
        },
        // Answered from the committed movement (its note and event), never saved: a claim has no idempotency key.
        reply: () => ({}),
      })
    },
  })
  if (E.isLeft(result)) return result
  const outcome = result.right
  if (outcome._tag === 'Refusal') return E.left(outcome.reasonCode === 'already_claimed' ? conflict(outcome.message) : unprocessable(outcome.message))
  if (outcome._tag !== 'committed' || !claimed) return E.left(conflict('The note could not be claimed; try again'))
  return E.right({ note: claimed, event: outcome.committed.event })
}
