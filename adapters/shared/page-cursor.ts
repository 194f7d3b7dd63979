/**
 * Opaque cursors of the Store adapters. A query cursor is base64url JSON of the last item's remaining
 * index values (null where the field holds no string or number) and its key; a stream cursor is the
 * entry's sequence zero-padded to 16 digits, so cursors of one stream also sort as strings. The
 * MongoDB adapter writes the same forms (adapters/mongodb/page-cursor.ts).
 */
import type { IndexPosition } from './index-order.js'

/** @example encodeQueryCursor({ values: ['b', 3], key: 'k1' }) // 'WyJiIiwzLCJrMSJd' */
export function encodeQueryCursor(position: IndexPosition): string {
  return Buffer.from(JSON.stringify([...position.values, position.key])).toString('base64url')
}

/** The position in a cursor from `encodeQueryCursor` with `valueCount` values; anything else is a RangeError. */
export function decodeQueryCursor(cursor: string, valueCount: number): IndexPosition {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new RangeError('Not a cursor of this query')
  }
  const isScalar = (item: unknown) => item === null || typeof item === 'string' || typeof item === 'number'
  if (!Array.isArray(parsed) || parsed.length !== valueCount + 1 || !parsed.every(isScalar)) {
    throw new RangeError('Not a cursor of this query')
  }
  const key = parsed[valueCount]
  if (typeof key !== 'string') throw new RangeError('Not a cursor of this query')
  return { values: parsed.slice(0, valueCount) as (string | number | null)[], key }
}

const SEQUENCE_DIGITS = 16

/** @example encodeStreamCursor(1) // '0000000000000001' */
export function encodeStreamCursor(sequence: number): string {
  return String(sequence).padStart(SEQUENCE_DIGITS, '0')
}

/** The sequence in a cursor from `encodeStreamCursor`; anything else is a RangeError. */
export function decodeStreamCursor(cursor: string): number {
  // Exactly the written width: a truncated cursor is refused, not read as another position.
  if (!/^\d{16}$/.test(cursor)) throw new RangeError('Not a stream cursor')
  return Number(cursor)
}
