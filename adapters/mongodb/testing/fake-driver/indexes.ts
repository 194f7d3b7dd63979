// Index descriptions and the unique-key checks: sameIndexKey and the E11000 duplicateKey error.
import { MongoServerError } from 'mongodb'
import { valuesAt, type Doc } from './documents.js'
import { compareValues, matches } from './query.js'

export interface IndexDescription {
  readonly v: 2
  readonly key: Doc
  readonly name: string
  readonly unique?: boolean
  readonly partialFilterExpression?: Doc
  readonly expireAfterSeconds?: number
}

/** True when two documents share a key of `index` (both pass its partial filter). */
export function sameIndexKey(index: IndexDescription, a: Doc, b: Doc): boolean {
  const filter = index.partialFilterExpression
  if (filter !== undefined && !(matches(a, filter) && matches(b, filter))) return false
  const keysOfB = indexKeys(index, b)
  return indexKeys(index, a).some((key) => keysOfB.some((other) => key.every((value, i) => compareValues(value, other[i]) === 0)))
}

/**
 * The keys a document has in `index`: an array field is indexed through its elements (a multikey
 * index, one key per element), a missing field as null.
 */
export function indexKeys(index: IndexDescription, doc: Doc): unknown[][] {
  let keys: unknown[][] = [[]]
  for (const path of Object.keys(index.key)) {
    const reached = valuesAt(doc, path).filter((value, _, all) => !Array.isArray(value) || all.length === 1)
    const values = reached.length === 0 ? [null] : reached.map((value) => (Array.isArray(value) ? undefined : value))
    keys = keys.flatMap((key) => values.map((value) => [...key, value]))
  }
  return keys
}

export function duplicateKey(target: string, indexName: string, keyPattern: Doc, keyValue: Doc): MongoServerError {
  return new MongoServerError({
    message: `E11000 duplicate key error collection: ${target} index: ${indexName} dup key: ${JSON.stringify(keyValue)}`,
    code: 11000,
    keyPattern,
    keyValue,
  })
}
