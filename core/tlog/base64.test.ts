/** Strict base64 stays strict after the faster paths: canonical padding bits, every length, and agreement with Buffer. */
import { describe, expect, it } from 'vitest'
import { fromBase64, toBase64, toHex } from './base64.js'

describe('tlog base64', () => {
  it('round-trips every length and agrees with Buffer', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 37 + length) & 0xff)
      const text = toBase64(bytes)
      expect(text).toBe(Buffer.from(bytes).toString('base64'))
      expect(fromBase64(text)).toEqual(bytes)
    }
    const large = new Uint8Array(50_000).map((_, i) => (i * 131) & 0xff)
    expect(toBase64(large)).toBe(Buffer.from(large).toString('base64'))
  })

  it('writes hex as Buffer does: every byte value, empty and views', () => {
    const every = new Uint8Array(256).map((_, i) => i)
    expect(toHex(every)).toBe(Buffer.from(every).toString('hex'))
    expect(toHex(new Uint8Array(0))).toBe('')
    expect(toHex(every.subarray(250, 253))).toBe('fafbfc')
  })

  it('refuses non-canonical padding bits and malformed text', () => {
    expect(fromBase64('QQ==')).toEqual(new Uint8Array([0x41]))
    expect(fromBase64('QR==')).toBeUndefined()
    expect(fromBase64('QUI=')).toEqual(new Uint8Array([0x41, 0x42]))
    expect(fromBase64('QUJ=')).toBeUndefined()
    for (const bad of ['Q', 'QQ=', 'QQ', 'Q===', 'QQ==QQ==', 'QQ-_', ' QQ==', '====', 'Q=QQ']) expect(fromBase64(bad), bad).toBeUndefined()
  })

  it('accepts exactly the padded base64 the grouped pattern it replaced accepted', () => {
    const grouped = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
    const symbols = ['A', 'Q', '+', '/', '=', '-', '0']
    for (let n = 0; n < 20_000; n++) {
      let text = ''
      for (let length = n % 10, i = 0; i < length; i++) text += symbols[(n * 7 + i * 13 + ((n >> i) & 3)) % symbols.length]
      // Refused where the pattern refused; where it accepted, only non-zero padding bits may still refuse.
      if (!grouped.test(text)) expect(fromBase64(text), text).toBeUndefined()
      else if (!text.includes('=')) expect(fromBase64(text), text).toBeDefined()
      // Exactly: Buffer's bytes where they encode back to the same text (canonical), refused otherwise.
      const canonical = grouped.test(text) && Buffer.from(text, 'base64').toString('base64') === text
      expect(fromBase64(text), text).toEqual(canonical ? new Uint8Array(Buffer.from(text, 'base64')) : undefined)
    }
  })
})
