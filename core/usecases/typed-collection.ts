/**
 * A Store collection declared once with the io-ts codec of its documents: reads decode (a document
 * the codec refuses is a corrupt store, and says which field), writes take the record type. Code
 * that goes through one never casts between stored `Json` and its records.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec, Expectation, Json, Store, StoredDocument, Write } from '../../ports/store.js'

export interface TypedCollection<A> {
  readonly name: string
  readonly spec: CollectionSpec
  /** The document under `key`, decoded, with its version. */
  get(store: Pick<Store, 'get'>, key: string): Promise<{ readonly value: A; readonly version: number } | undefined>
  /** The record of a document read another way (a query page). */
  decode(document: Pick<StoredDocument, 'key' | 'value'>): A
  /** A write storing `value` under `key` if `expect` holds. */
  put(key: string, value: A, expect: Expectation): Write
}

/** Any JSON the Store holds (it holds nothing else): for members whose shape is someone else's. */
export const storedJson = new t.Type<Json, Json, unknown>('Json', (u): u is Json => u !== undefined, (u, c) => (u === undefined ? t.failure(u, c) : t.success(u as Json)), t.identity)

/** A member stored as `null` when it has no value. @example nullable(t.string) */
export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null])

/** The commonest nullable members: text or `null`, a number (most often a time in epoch ms) or `null`. */
export const nullableString = nullable(t.string)
export const nullableNumber = nullable(t.number)

/**
 * The expectation that a document is still as it was loaded: at `version`, or still absent when it
 * was loaded absent (null).
 *
 * @example valueNotes.put(noteId, next, unchangedSince(loaded?.version ?? null))
 */
export function unchangedSince(version: number | null): Expectation {
  return version === null ? { kind: 'absent' } : { kind: 'version', version }
}

/** A document the codec refused: the Store holds what no write of ours could have put there. */
export class CorruptDocumentError extends Error {
  constructor(collection: string, key: string, errors: t.Errors) {
    super(`Stored document ${collection}/${key} does not match its codec at ${failedPaths(errors)}`)
    this.name = 'CorruptDocumentError'
  }
}

/**
 * The fields a codec refused, once each: `stars, owner.name`. The parts of an intersection or a
 * union are numbered in io-ts's context; those numbers name no field and are left out.
 */
export function failedPaths(errors: t.Errors): string {
  const paths = errors.map((error) =>
    error.context.filter((entry, i) => entry.key !== '' && !combinesParts(error.context[i - 1]?.type)).map((entry) => entry.key).join('.') || '(root)')
  return [...new Set(paths)].join(', ')
}

/** An intersection or a union, seen through the wrappers that validate in their inner codec's place. */
function combinesParts(codec: t.Decoder<unknown, unknown> | undefined): boolean {
  let inner: unknown = codec
  while (inner instanceof t.ReadonlyType || inner instanceof t.ExactType || inner instanceof t.RefinementType) inner = inner.type
  return inner instanceof t.IntersectionType || inner instanceof t.UnionType
}

/**
 * @example const accounts = typedCollection({ name: 'value.accounts' }, AccountRecordCodec); await accounts.get(store, 'phi:wallet:usr_1')
 */
export function typedCollection<A>(spec: CollectionSpec, codec: t.Type<A, unknown, unknown>): TypedCollection<A> {
  const decode = (document: Pick<StoredDocument, 'key' | 'value'>): A => {
    const decoded = codec.decode(document.value)
    if (E.isLeft(decoded)) throw new CorruptDocumentError(spec.name, document.key, decoded.left)
    return decoded.right
  }
  return {
    name: spec.name,
    spec,
    decode,
    async get(store, key) {
      const document = await store.get(spec.name, key)
      return document ? { value: decode(document), version: document.version } : undefined
    },
    // The codec's output is the record as JSON: every codec here describes JSON documents.
    put: (key, value, expect) => ({ kind: 'put', collection: spec.name, key, value: codec.encode(value) as Json, expect }),
  }
}
