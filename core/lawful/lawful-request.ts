/**
 * What every lawful-action call shares: the caller (a runtime application acting for its token's
 * user), a body that holds nothing but the members its component names (an amount, multiplier or
 * exemption a caller sends is refused, never ignored), the sealed proof object checked by the proof
 * kernel, and the result every call answers.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import type { Principal } from '../auth/principal.js'
import { sha256Hex, sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { invalidInput, unprocessable, type DomainError } from '../errors/domain-error.js'
import { nodeSha256Parts } from '../proof/node-digest.js'
import { openArtifact } from '../proof/open-artifact.js'
import { serviceTrust } from '../proof/service-trust.js'
import { verifyArtifact } from '../proof/verify.js'
import { runtimeCaller } from '../runtime/runtime-caller.js'
import { kaiMomentAt } from '../time/kai.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { findSaved, idempotencyClaim, type IdempotencyClaim, type IdempotencyRecord } from '../value/idempotency.js'
import { decodePayload } from './payloads.js'
import { AUTHORITY, RECEIPT_SCHEMA, RESULT_SCHEMA } from './records.js'

/** The application and the user it acts for. */
export interface LawfulCaller {
  readonly applicationId: string
  readonly userId: string
}

export function lawfulCaller(principal: Principal): Either<DomainError, LawfulCaller> {
  return E.map((caller: { applicationId: string; subject: string }) => ({ applicationId: caller.applicationId, userId: caller.subject }))(runtimeCaller(principal))
}

/** A sealed-proof-object call keyed by the client's `idempotencyKey`, after the checks every such call starts with. */
export interface KeyedLawfulRequest {
  readonly caller: LawfulCaller
  readonly claim: IdempotencyClaim
  /** The answer already saved under the key: a retry answers it again. */
  readonly saved: IdempotencyRecord | undefined
}

/**
 * The caller, nothing but `members` in the body (with `proofObject` holding only its own), and the
 * key claimed per application and user under `scope` with what was saved under it so far.
 *
 * @example const keyed = await keyedLawfulRequest(deps, request.principal, body, 'lawful-law', ['proofObject', 'idempotencyKey'])
 */
export async function keyedLawfulRequest(
  deps: Pick<CoreDeps, 'store'>,
  principal: Principal,
  body: { readonly idempotencyKey: string },
  scope: string,
  members: readonly string[],
): Promise<Either<DomainError, KeyedLawfulRequest>> {
  const caller = lawfulCaller(principal)
  if (E.isLeft(caller)) return caller
  const only = onlyMembers(body, members, { proofObject: PROOF_OBJECT_MEMBERS })
  if (E.isLeft(only)) return only
  const claim = idempotencyClaim(scope, `${caller.right.applicationId}:${caller.right.userId}`, body.idempotencyKey, body)
  if (E.isLeft(claim)) return claim
  const saved = await findSaved(deps, claim.right)
  if (E.isLeft(saved)) return saved
  return E.right({ caller: caller.right, claim: claim.right, saved: saved.right })
}

const VALUE_WORDS = /amount|multiplier|exempt|rate|price|value|bonus|discount/i

/**
 * Refuses members the component does not name, at the top level and in `proofObject`.
 *
 * @example onlyMembers(body, ['membershipId', 'expectedPriorValueHeadDigest'])
 */
export function onlyMembers(body: object, members: readonly string[], nested: Readonly<Record<string, readonly string[]>> = {}): Either<DomainError, void> {
  const check = (value: object, allowed: readonly string[], path: string): DomainError | undefined => {
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue
      if (VALUE_WORDS.test(key)) {
        return invalidInput(`${path}.${key} is refused: caller-supplied amounts, multipliers and exemptions are forbidden; value comes only from the sealed law and action and the server's own time, and nothing was written`)
      }
      return invalidInput(`${path}.${key} is not a member of this request (allowed: ${allowed.join(', ')}); nothing was written`)
    }
    return undefined
  }
  const top = check(body, members, 'body')
  if (top) return E.left(top)
  for (const [member, allowed] of Object.entries(nested)) {
    const inner = (body as Record<string, unknown>)[member]
    const problem = typeof inner === 'object' && inner !== null ? check(inner, allowed, `body.${member}`) : undefined
    if (problem) return E.left(problem)
  }
  return E.right(undefined)
}

export const PROOF_OBJECT_MEMBERS = ['exactBytesB64u', 'filename', 'mimeType'] as const

/** A sealed proof object this deployment verifies, its owner and its decoded payload. */
export interface SealedPayload<P> {
  readonly payload: P
  /** SHA-256 of the payload bytes (their canonical JSON): the law or admission digest. */
  readonly payloadSha256: string
  /** SHA-256 of the exact sealed bytes. */
  readonly sealedSha256: string
  readonly ownerUserId: string
}

/**
 * Verifies the exact bytes with the proof kernel against this deployment's trust material, requires
 * a proof object (one that names an owner) and decodes its payload with `codec`.
 */
export async function verifiedPayload<C extends t.Mixed>(
  deps: CoreDeps, exactBytesB64u: string, codec: C, what: string,
): Promise<Either<DomainError, SealedPayload<t.TypeOf<C>>>> {
  const bytes = fromBase64Url(exactBytesB64u)
  if (bytes === undefined || bytes.length === 0) return E.left(invalidInput('body.proofObject.exactBytesB64u must be the sealed proof object as unpadded base64url'))
  const verdict = await verifyArtifact(bytes, await serviceTrust(deps), { digest: nodeSha256Parts })
  if (!verdict.ok) return E.left(unprocessable(`The ${what} is not a sealed proof object this deployment verifies: ${verdict.errors.join('; ')}`))
  const owner = verdict.details?.owner?.userId
  if (verdict.kind !== 'proof-object' || owner === undefined) {
    return E.left(unprocessable(`The ${what} is an integrity-only seal; it must be a proof object that names its owner`))
  }
  const opened = openArtifact(bytes)
  if (E.isLeft(opened)) return E.left(unprocessable(`The ${what} could not be opened: ${opened.left.error}`))
  const payload = decodePayload(codec, opened.right.payload, what)
  if (E.isLeft(payload)) return E.left(unprocessable(payload.left))
  return E.right({ payload: payload.right, payloadSha256: verdict.sha256!, sealedSha256: sha256Hex(bytes), ownerUserId: owner })
}

/** The receipt of one recorded fact and its digest (SHA-256 of its RFC 8785 form). */
export function receiptOf(fields: Readonly<Record<string, unknown>>, caller: LawfulCaller, nowMs: number): { receipt: Record<string, unknown>; receiptDigest: string } {
  const receipt = { schema: RECEIPT_SCHEMA, ...fields, applicationId: caller.applicationId, recordedAt: new Date(nowMs).toISOString(), recordedAtKaiPulse: kaiMomentAt(nowMs).pulse }
  return { receipt, receiptDigest: sha256OfJson(receipt) }
}

export type LawfulAction = 'admitted' | 'transferred' | 'law-registered' | 'value-head-derived'

/** The digests a result names: always the law's and the receipt's, the others when the fact has them. */
type ResultDigests = { readonly lawDigest: string; readonly receiptDigest: string } & Partial<Record<'admissionDigest' | 'valueHeadDigest', string>>

/** The V125LawfulActionResult of a recorded fact (JSON as it stands: only the digests given are members). */
export function lawfulResult<D extends ResultDigests & { readonly [name: string]: string }>(action: LawfulAction, digests: D) {
  return { ok: true, schema: RESULT_SCHEMA, action, ...digests, authority: AUTHORITY } as const
}
