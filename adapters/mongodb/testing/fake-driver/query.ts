// The query subset: matches, its operators, type bracketing and MongoDB's sort order.
import { Binary, ObjectId } from 'mongodb'
import { canonical, valuesAt, type Doc } from './documents.js'

/**
 * True when `doc` passes `filter` (equality, $eq $ne $gt $gte $lt $lte $in $nin $exists $type, $and,
 * $or), with a server's array semantics: a condition on a path holds when it holds for any value the
 * path reaches, an array or any of its elements (so `{ tags: 'a' }` matches `{ tags: ['a', 'b'] }`
 * and `$type: 'string'` matches an array holding a string).
 */
export function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as Doc[]).every((part) => matches(doc, part))
    if (key === '$or') return (condition as Doc[]).some((part) => matches(doc, part))
    if (key.startsWith('$')) throw new Error(`The fake does not support ${key}`)
    const values = valuesAt(doc, key)
    if (isOperatorObject(condition)) return Object.entries(condition).every(([operator, argument]) => applyOperator(operator, argument, values))
    return equalsAny(values, condition)
  })
}

function isOperatorObject(condition: unknown): condition is Doc {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return false
  const keys = Object.keys(condition)
  return keys.length > 0 && keys.every((key) => key.startsWith('$')) && Object.getPrototypeOf(condition) === Object.prototype
}

function applyOperator(operator: string, argument: unknown, values: readonly unknown[]): boolean {
  const some = (test: (value: unknown) => boolean) => values.some(test)
  switch (operator) {
    case '$eq':
      return equalsAny(values, argument)
    case '$ne':
      return !equalsAny(values, argument)
    case '$gt':
      return some((value) => comparable(value, argument) && compareValues(value, argument) > 0)
    case '$gte':
      return some((value) => comparable(value, argument) && compareValues(value, argument) >= 0)
    case '$lt':
      return some((value) => comparable(value, argument) && compareValues(value, argument) < 0)
    case '$lte':
      return some((value) => comparable(value, argument) && compareValues(value, argument) <= 0)
    case '$in':
      return (argument as unknown[]).some((candidate) => equalsAny(values, candidate))
    case '$nin':
      return !(argument as unknown[]).some((candidate) => equalsAny(values, candidate))
    case '$exists':
      return (values.length > 0) === argument
    case '$type': {
      const wanted = Array.isArray(argument) ? argument : [argument]
      return some((value) => wanted.includes(typeName(value)))
    }
    default:
      throw new Error(`The fake does not support ${operator}`)
  }
}

/** Equality against what a path reaches: `null` also matches a missing field. */
function equalsAny(values: readonly unknown[], argument: unknown): boolean {
  if (argument === null) return values.length === 0 || values.some((value) => value === null)
  return values.some((value) => comparable(value, argument) && compareValues(value, argument) === 0)
}

/** Comparison operators only compare values of one type class ("type bracketing"). */
function comparable(value: unknown, argument: unknown): boolean {
  return value !== undefined && typeRank(value) === typeRank(argument)
}

/** An empty array sorts before null and missing fields. */
const EMPTY_ARRAY_KEY = Symbol('empty array')

/**
 * The value a sort on `path` uses: an array sorts by its smallest element ascending and its largest
 * descending, as on a server; an empty array before everything.
 */
export function sortValue(doc: unknown, path: string, direction: 1 | -1): unknown {
  const reached = valuesAt(doc, path)
  if (reached.length === 0) return undefined
  const scalars = reached.filter((value) => !Array.isArray(value))
  if (scalars.length === 0) return EMPTY_ARRAY_KEY
  return scalars.reduce((best, value) => (compareValues(value, best) * direction < 0 ? value : best))
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  if (Array.isArray(value)) return 'array'
  if (value instanceof ObjectId) return 'objectId'
  if (value instanceof Date) return 'date'
  if (value instanceof Binary || value instanceof Uint8Array) return 'binData'
  return 'object'
}

/** MongoDB's order of types: null/absent, numbers, strings, objects, arrays, binary, ObjectId, booleans, dates. */
function typeRank(value: unknown): number {
  const ranks: Record<string, number> = { null: 1, number: 2, string: 3, object: 4, array: 5, binData: 6, objectId: 7, bool: 8, date: 9 }
  return value === undefined ? 1 : (ranks[typeName(value)] ?? 10)
}

/** MongoDB's sort order: by type, then numbers numerically, strings by UTF-8 bytes. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === EMPTY_ARRAY_KEY || b === EMPTY_ARRAY_KEY) return a === b ? 0 : a === EMPTY_ARRAY_KEY ? -1 : 1
  const rankOrder = typeRank(a) - typeRank(b)
  if (rankOrder !== 0) return Math.sign(rankOrder)
  if (a === undefined || a === null) return 0
  if (typeof a === 'number') return Math.sign(a - (b as number))
  // A server compares the UTF-8 bytes it stores; a lone surrogate was stored as U+FFFD.
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b as string))
  if (typeof a === 'boolean') return Number(a) - Number(b)
  if (a instanceof Date) return Math.sign(a.getTime() - (b as Date).getTime())
  if (a instanceof ObjectId) return Math.sign(a.toHexString().localeCompare((b as ObjectId).toHexString()))
  return Math.sign(canonical(a).localeCompare(canonical(b)))
}
