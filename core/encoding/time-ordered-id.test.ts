/** Time-ordered ids are RFC 9562 UUIDv7 bytes: the time reads back, version and variant are set, the rest is the entropy's. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CryptoEntropy } from '../../adapters/system/index.js'
import { fromBase64Url } from './base64url.js'
import { timeOrderedId, timeOrderedIdBytes } from './time-ordered-id.js'

const uuidText = (bytes: Uint8Array) => {
  const hex = Buffer.from(bytes).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

describe('timeOrderedId', () => {
  it('is a UUIDv7 of the time given, whatever the entropy draws', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), fc.uint8Array({ minLength: 10, maxLength: 10 }), (nowMs, drawn) => {
        const bytes = timeOrderedIdBytes(nowMs, { bytes: (length) => (expect(length).toBe(10), drawn.slice()) })
        // RFC 9562 §5.7: unix_ts_ms in the first 48 bits, version 7, variant 10.
        expect(uuidText(bytes)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        expect(parseInt(Buffer.from(bytes.subarray(0, 6)).toString('hex'), 16)).toBe(nowMs)
        // Every drawn bit outside the version and variant bits is kept.
        expect(bytes[6]! & 0x0f).toBe(drawn[0]! & 0x0f)
        expect(bytes[7]).toBe(drawn[1])
        expect(bytes[8]! & 0x3f).toBe(drawn[2]! & 0x3f)
        expect([...bytes.subarray(9)]).toEqual([...drawn.subarray(3)])
      }),
    )
  })

  it('writes the prefix and 22 base64url characters that decode to those bytes', () => {
    const nowMs = Date.UTC(2026, 10, 27)
    const id = timeOrderedId('ent_', nowMs, new CryptoEntropy())
    expect(id).toMatch(/^ent_[A-Za-z0-9_-]{22}$/)
    expect(Buffer.from(fromBase64Url(id.slice(4))!.subarray(0, 6)).toString('hex')).toBe(nowMs.toString(16).padStart(12, '0'))
  })

  it('keeps ids made in the same millisecond apart', () => {
    const entropy = new CryptoEntropy()
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedId('ent_', 1_800_000_000_000, entropy)))
    expect(ids.size).toBe(1000)
  })

  it('keeps the whole milliseconds of a finer clock and refuses a time a UUIDv7 cannot hold', () => {
    const entropy = new CryptoEntropy()
    expect([...timeOrderedIdBytes(1234.9, entropy).subarray(0, 6)]).toEqual([0, 0, 0, 0, 4, 210])
    for (const nowMs of [-1, 2 ** 48, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => timeOrderedIdBytes(nowMs, entropy)).toThrow(RangeError)
  })
})
