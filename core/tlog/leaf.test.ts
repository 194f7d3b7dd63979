import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toHex } from './base64.js'
import { leafEntryBytes, leafHashHex, type LogLeaf } from './leaf.js'
import { leafHash } from './merkle.js'

describe('leafHashHex', () => {
  it('is the RFC 9162 leaf hash of the entry bytes, for any leaf (non-ASCII text included)', () => {
    const member = fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer(), fc.boolean(), fc.constant(null))
    const leaf = fc.record({ kind: fc.string({ unit: 'grapheme' }), members: fc.dictionary(fc.string({ unit: 'grapheme' }), member, { maxKeys: 6 }) })
      .map(({ kind, members }): LogLeaf => ({ ...members, kind }))
    fc.assert(fc.property(leaf, (value) => leafHashHex(value) === toHex(leafHash(leafEntryBytes(value)))))
  })

  it('hashes a wallet event\'s leaf as the bytes of its canonical JSON', () => {
    const leaf = { eventDigest: 'a'.repeat(64), eventId: 'wle_x', kind: 'cairn.wallet_ledger_event' }
    expect(leafHashHex(leaf)).toBe(toHex(leafHash(new TextEncoder().encode(JSON.stringify(leaf)))))
  })
})
