// Index descriptions and the unique-key checks: sameIndexKey and the E11000 duplicateKey error.
import { MongoServerError } from 'mongodb'
import { resolvePath, type Doc } from './documents.js'
import { compareValues, matches } from './query.js'

export interface IndexDescription {
  readonly v: 2
  readonly key: Doc
  readonly name: string
  readonly unique?: boolean
  readonly partialFilterExpression?: Doc
  readonly expireAfterSeconds?: number
}

export function sameIndexKey(index: IndexDescription, a: Doc, b: Doc): boolean {
  const filter = index.partialFilterExpression
  if (filter !== undefined && !(matches(a, filter) && matches(b, filter))) return false
  return Object.keys(index.key).every((path) => compareValues(resolvePath(a, path), resolvePath(b, path)) === 0)
}

export function duplicateKey(target: string, indexName: string, keyPattern: Doc, keyValue: Doc): MongoServerError {
  return new MongoServerError({
    message: `E11000 duplicate key error collection: ${target} index: ${indexName} dup key: ${JSON.stringify(keyValue)}`,
    code: 11000,
    keyPattern,
    keyValue,
  })
}
