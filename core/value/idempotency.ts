/**
 * Idempotency keys, as Stripe has them: the first request with a key saves its answer in the same
 * commit as the value it moved; a retry with the same key and the same body gets that answer back
 * without moving value again; the same key with a different body is refused (422). Keys are
 * scoped to who sent them and to the operation, and kept as long as the ledger entry they answer.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { sha256OfJson } from '../digest/sha256.js'
import { invalidInput, unprocessable, type DomainError } from '../errors/domain-error.js'
import { CorruptDocumentError, nullable, storedJson, typedCollection } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const VALUE_IDEMPOTENCY = 'value.idempotency'

/** Stripe's bound on key length. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** Where a key lives and what the request it answers looked like. */
export interface IdempotencyClaim {
  /** Store key: scope and key. */
  readonly storeKey: string
  readonly key: string
  /** SHA-256 of the RFC 8785 canonical request body. */
  readonly requestDigest: string
}

/**
 * What is saved under a key. `status` `committed`: value moved; `zero-write`: refused by a domain
 * rule, nothing moved. `answerEvent`: the answer ends with this public wallet event, whose place
 * the Store gave at commit time; a replay finds it in the feed after the position `after` that the
 * movement's batch read (core/value/feed-place.ts).
 */
const IdempotencyRecordCodec = t.readonly(t.intersection([
  t.type({
    key: t.string, requestDigest: t.string, status: t.keyof({ committed: null, 'zero-write': null }), reply: storedJson, entryId: nullable(t.string), createdAt: t.string,
  }),
  t.partial({ answerEvent: t.readonly(t.type({ id: t.string, after: nullable(t.string) })) }),
]))
export type IdempotencyRecord = t.TypeOf<typeof IdempotencyRecordCodec>

export const valueIdempotency = typedCollection({ name: VALUE_IDEMPOTENCY }, IdempotencyRecordCodec)
export const valueIdempotencyCollection: CollectionSpec = valueIdempotency.spec

/**
 * @example idempotencyClaim('transfer', 'usr_1', 'k-1', body) // right({ storeKey: 'transfer:usr_1:k-1', … })
 */
export function idempotencyClaim(operation: string, ownerId: string, key: string, body: unknown): Either<DomainError, IdempotencyClaim> {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return E.left(invalidInput(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`))
  return E.right({ storeKey: `${operation}:${ownerId}:${key}`, key, requestDigest: sha256OfJson(body) })
}

/** The saved record, or a 422 when the key was used with another body. */
export async function findSaved(deps: Pick<CoreDeps, 'store'>, claim: IdempotencyClaim): Promise<Either<DomainError, IdempotencyRecord | undefined>> {
  const doc = await valueIdempotency.get(deps.store, claim.storeKey)
  if (!doc) return E.right(undefined)
  const saved = doc.value
  if (saved.requestDigest !== claim.requestDigest) {
    return E.left(unprocessable('This idempotencyKey was already used with a different request body; use a new key for a new request'))
  }
  return E.right(saved)
}

/**
 * How an operation reads back the replies it saved, declared once with the codec of its reply. A
 * saved reply the codec refuses is a corrupt stored record, reported as typed collections report
 * theirs (the failing field is named under `reply`).
 *
 * @example const savedIssued = savedReplies(IssuedCodec); savedIssued(claim, saved).event
 */
export function savedReplies<A>(codec: t.Type<A, unknown, unknown>): (claim: IdempotencyClaim, saved: IdempotencyRecord) => A {
  const withReply = t.type({ reply: codec })
  return (claim, saved) => {
    const decoded = withReply.decode(saved)
    if (E.isLeft(decoded)) throw new CorruptDocumentError(VALUE_IDEMPOTENCY, claim.storeKey, decoded.left)
    return decoded.right.reply
  }
}

/** The write that saves an answer; `absent` makes a concurrent duplicate lose its whole commit. */
export function saveWrite(claim: IdempotencyClaim, record: Omit<IdempotencyRecord, 'key' | 'requestDigest'>): Write {
  return valueIdempotency.put(claim.storeKey, { key: claim.key, requestDigest: claim.requestDigest, ...record }, { kind: 'absent' })
}
