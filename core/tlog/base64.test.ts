/** Strict base64 stays strict after the faster paths: canonical padding bits, every length, and agreement with Buffer. */
import { describe, expect, it } from 'vitest'
import { fromBase64, toBase64 } from './base64.js'

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

  it('refuses non-canonical padding bits and malformed text', () => {
    expect(fromBase64('QQ==')).toEqual(new Uint8Array([0x41]))
    expect(fromBase64('QR==')).toBeUndefined()
    expect(fromBase64('QUI=')).toEqual(new Uint8Array([0x41, 0x42]))
    expect(fromBase64('QUJ=')).toBeUndefined()
    for (const bad of ['Q', 'QQ=', 'QQ', 'Q===', 'QQ==QQ==', 'QQ-_', ' QQ==']) expect(fromBase64(bad), bad).toBeUndefined()
  })
})
