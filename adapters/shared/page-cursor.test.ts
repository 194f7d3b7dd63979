import { describe, expect, it } from 'vitest'
import { decodeQueryCursor, decodeStreamCursor, encodeQueryCursor, encodeStreamCursor } from './page-cursor.js'

describe('page cursors', () => {
  it('round-trips a query position and refuses anything else', () => {
    const position = { values: ['b', 3, null], key: 'k1' }
    expect(decodeQueryCursor(encodeQueryCursor(position), 3)).toEqual(position)
    expect(encodeQueryCursor({ values: ['b', 3], key: 'k1' })).toBe('WyJiIiwzLCJrMSJd')
    for (const [cursor, count] of [[encodeQueryCursor(position), 2], ['not base64 json', 0], [Buffer.from('[1]').toString('base64url'), 0]] as const) {
      expect(() => decodeQueryCursor(cursor, count)).toThrow(RangeError)
    }
  })

  it('writes stream cursors that sort as their sequences do', () => {
    expect(encodeStreamCursor(1)).toBe('0000000000000001')
    expect(encodeStreamCursor(9) < encodeStreamCursor(10)).toBe(true)
    expect(decodeStreamCursor(encodeStreamCursor(42))).toBe(42)
    expect(() => decodeStreamCursor('-1')).toThrow(RangeError)
  })
})
