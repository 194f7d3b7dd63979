// The query subset: matches, its operators, type bracketing and MongoDB's sort order.
import { Binary, ObjectId } from 'mongodb'
import { canonical, resolvePath, type Doc } from './documents.js'

/** True when `doc` passes `filter` (equality, $eq $ne $gt $gte $lt $lte $in $nin $exists $type, $and, $or). */
export function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as Doc[]).every((part) => matches(doc, part))
    if (key === '$or') return (condition as Doc[]).some((part) => matches(doc, part))
    if (key.startsWith('$')) throw new Error(`The fake does not support ${key}`)
    const value = resolvePath(doc, key)
    if (isOperatorObject(condition)) return Object.entries(condition).every(([operator, argument]) => applyOperator(operator, argument, value))
    return equalsValue(value, condition)
  })
}

function isOperatorObject(condition: unknown): condition is Doc {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return false
  const keys = Object.keys(condition)
  return keys.length > 0 && keys.every((key) => key.startsWith('$')) && Object.getPrototypeOf(condition) === Object.prototype
}

function applyOperator(operator: string, argument: unknown, value: unknown): boolean {
  switch (operator) {
    case '$eq':
      return equalsValue(value, argument)
    case '$ne':
      return !equalsValue(value, argument)
    case '$gt':
      return comparable(value, argument) && compareValues(value, argument) > 0
    case '$gte':
      return comparable(value, argument) && compareValues(value, argument) >= 0
    case '$lt':
      return comparable(value, argument) && compareValues(value, argument) < 0
    case '$lte':
      return comparable(value, argument) && compareValues(value, argument) <= 0
    case '$in':
      return (argument as unknown[]).some((candidate) => equalsValue(value, candidate))
    case '$nin':
      return !(argument as unknown[]).some((candidate) => equalsValue(value, candidate))
    case '$exists':
      return (value !== undefined) === argument
    case '$type':
      return value !== undefined && (Array.isArray(argument) ? argument : [argument]).includes(typeName(value))
    default:
      throw new Error(`The fake does not support ${operator}`)
  }
}

function equalsValue(value: unknown, argument: unknown): boolean {
  if (argument === null) return value === null || value === undefined
  return value !== undefined && comparable(value, argument) && compareValues(value, argument) === 0
}

/** Comparison operators only compare values of one type class ("type bracketing"). */
function comparable(value: unknown, argument: unknown): boolean {
  return value !== undefined && typeRank(value) === typeRank(argument)
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
  const rankOrder = typeRank(a) - typeRank(b)
  if (rankOrder !== 0) return Math.sign(rankOrder)
  if (a === undefined || a === null) return 0
  if (typeof a === 'number') return Math.sign(a - (b as number))
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b as string))
  if (typeof a === 'boolean') return Number(a) - Number(b)
  if (a instanceof Date) return Math.sign(a.getTime() - (b as Date).getTime())
  if (a instanceof ObjectId) return Math.sign(a.toHexString().localeCompare((b as ObjectId).toHexString()))
  return Math.sign(canonical(a).localeCompare(canonical(b)))
}
