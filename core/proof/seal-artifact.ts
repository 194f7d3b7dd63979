/**
 * Sealing with the service's ports: the seal record, its action-ledger `record` event and its
 * transparency-log leaf are written in ONE Store commit; then the leaf's inclusion receipt (the
 * log integrates within a second, driven here if no one else has) completes the proof, which is
 * embedded in the bytes. A failure before or during the commit writes nothing; a failure after it
 * leaves a complete, logged record whose leaf the integrator still folds in (the caller may retry).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CommitConflict } from '../../ports/store.js'
import { conflict, invalidInput, unavailable, type DomainError } from '../errors/domain-error.js'
import { awaitInclusion } from '../tlog/inclusion.js'
import { logOrigin } from '../tlog/log-identity.js'
import { commitWithLeaves } from '../tlog/sequence.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { toHex } from './bytes.js'
import type { ProofObject, ProofOwner, SealKind } from './format.js'
import { ALREADY_SEALED, alreadySealed, assembleSealed, prepareSeal, sealableOf, signStatement, type PreparedSeal } from './seal.js'
import { sealRecordWrite, type SealRecord } from './seal-records.js'
import { assetManifestOf } from './asset-manifest.js'
import { sealDigests } from './seal-digests.js'
import { nodeCrc32 } from './node-crc32.js'
import type { SealedFile } from './sealed-file.js'

/** Attempts of one seal, each under a fresh code, when its commit conflicts (nothing is written by a conflicting commit). */
const SEAL_ATTEMPTS = 3

/** Seals are signed by the current Ed25519 proof key (published forever in the proof key set). */
export const PROOF_SIGNING_ALG = 'EdDSA'

export interface SealFile {
  readonly filename: string
  readonly mimeType: string
  readonly bytes: Uint8Array
}

/** The sealed file is held as parts (`parts` to hash or send without a copy; `bytes` joins them on first read). */
export interface SealedArtifact extends SealedFile {
  readonly prepared: PreparedSeal
  readonly record: SealRecord
  readonly proof: ProofObject
  readonly sealedSha256: string
}

/** A short, URL-safe slug from the file's name and the seal's code. */
function slugOf(fileName: string, code: string): string {
  const stem = fileName.replace(/\.[^.]*$/u, '').toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-+|-+$/gu, '').slice(0, 40)
  return `${stem === '' ? 'file' : stem}-${code.slice(0, 8)}`
}

/**
 * @example const sealed = await sealArtifact(deps, file, { sealKind: 'integrity-seal', actorUserId: null })
 */
export async function sealArtifact(
  deps: CoreDeps,
  file: SealFile,
  options: { readonly sealKind: SealKind; readonly owner?: ProofOwner; readonly actorUserId: string | null; readonly action?: string },
): Promise<E.Either<DomainError, SealedArtifact>> {
  const createdAtMs = deps.clock.now()
  const mediaType = file.mimeType === '' ? 'application/octet-stream' : file.mimeType
  const surveyed = sealableOf(file.bytes, mediaType, file.filename, { searchWhileHashing: true })
  if (E.isLeft(surveyed)) return E.left(invalidInput(surveyed.left))
  const { unsearchedMarker, ...sealable } = surveyed.right
  const digests = sealDigests(file.bytes, sealable.insertionPoint, unsearchedMarker)
  // The marker found while hashing (rare): whether that makes the payload sealed is the carrier's exact answer.
  if (digests.markerFound && alreadySealed(file.bytes)) return E.left(invalidInput(ALREADY_SEALED))
  // The package's CRC-32 is computed once, natively, and signed; assembling the package reuses it.
  const payloadCrc32 = sealable.carrier.checksumsPayload ? nodeCrc32(file.bytes) : undefined
  let lost: CommitConflict | undefined
  for (let attempt = 0; attempt < SEAL_ATTEMPTS; attempt++) {
    const code = toHex(deps.entropy.bytes(10))
    const prepared = prepareSeal({
      payload: file.bytes,
      fileName: file.filename,
      mediaType,
      sealable,
      payloadSha256: digests.payloadSha256,
      ...(payloadCrc32 === undefined ? {} : { payloadCrc32 }),
      sealKind: options.sealKind,
      ...(options.owner ? { owner: options.owner } : {}),
      createdAtMs,
      code,
      slug: slugOf(file.filename, code),
      baseUrl: deps.config.baseUrl,
      logOrigin: logOrigin(deps.config.baseUrl),
    })
    if (E.isLeft(prepared)) return E.left(invalidInput(prepared.left))
    const { statement, statementBytes, leaf } = prepared.right
    const signature = await signStatement(statementBytes, await deps.keys.current(PROOF_SIGNING_ALG, 'proof'))
    const record: SealRecord = {
      code,
      slug: statement.bundle.slug,
      sha256: statement.payload.sha256,
      statementSha256: leaf.statementSha256,
      sealKind: options.sealKind,
      ownerUserId: options.owner?.userId ?? null,
      createdAtMs,
      statement,
      signatures: [signature],
      // A proof object's native record for its owner, written in the same commit as the seal.
      ...(options.sealKind === 'proof-object' ? { manifest: assetManifestOf(statement) } : {}),
    }
    const { outcome, leafIndexes } = await commitWithLeaves(deps, [sealRecordWrite(record)], [leaf], {
      actions: [{ kind: 'record', action: options.action ?? (options.sealKind === 'proof-object' ? 'asset_sealed' : 'document_sealed'), actorUserId: options.actorUserId }],
    })
    if (!outcome.ok) {
      // Nothing was written: draw a fresh code (and so slug) and seal again.
      lost = outcome.conflict
      continue
    }
    const receipt = await awaitInclusion(deps, leafIndexes[0]!)
    // Node's native CRC-32 for the package's proof entry too (the payload's is the signed one).
    const sealed = assembleSealed(prepared.right, [signature], receipt, [], nodeCrc32)
    return E.right(Object.assign(sealed, { prepared: prepared.right, record, sealedSha256: digests.sealedSha256(sealed.parts) }))
  }
  return E.left(refusalOf(lost!))
}

/**
 * What a seal that lost every attempt answers, named by what it lost: its own code or slug (the
 * record, write 0, already taken), or a stream head — which appendNext never loses, so that would
 * be a busy Store, never "the same code".
 */
function refusalOf(lostTo: CommitConflict): DomainError {
  return lostTo.writeIndex === 0 && lostTo._tag !== 'HeadMismatch'
    ? conflict('Another seal took the same code or slug at the same moment; send the file again')
    : unavailable('The transparency log was busy with other seals; send the file again')
}
