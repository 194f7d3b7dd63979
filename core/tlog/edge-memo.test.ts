/** The edge memo answers exactly what full base64 decoding and encoding answer. */
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/index.js'
import { fromBase64, toBase64 } from './base64.js'
import { base64MemoOf } from './edge-memo.js'

const bytesOf = (length: number, seed = 1) => new Uint8Array(length).map((_, i) => (i * 31 + seed * 7) & 0xff)

describe('base64 memo of the log edge', () => {
  it('encodes growing, shrinking, rewritten and unaligned bytes as toBase64 does, and decodes as fromBase64 does', () => {
    const memo = base64MemoOf(new MemoryStore())
    for (let length = 0; length < 200; length += 1 + (length % 7)) {
      const bytes = bytesOf(length)
      const text = memo.encode('tile 0/0', bytes)
      expect(text, `${length}`).toBe(toBase64(bytes))
      expect(memo.decode('tile 0/0', text)).toEqual(bytes)
    }
    const rewritten = bytesOf(150, 2) // same key, other bytes: not an extension
    expect(memo.encode('tile 0/0', rewritten)).toBe(toBase64(rewritten))
    expect(memo.encode('tile 0/0', bytesOf(10, 2))).toBe(toBase64(bytesOf(10, 2)))
    const unaligned = bytesOf(101, 3).subarray(1)
    expect(memo.encode('bundle 0', unaligned)).toBe(toBase64(unaligned))
    expect(memo.encode('bundle 0', bytesOf(101, 3).subarray(1, 101))).toBe(toBase64(unaligned))
  })

  it('decodes a text it did not write, and refuses what fromBase64 refuses', () => {
    const memo = base64MemoOf(new MemoryStore())
    memo.encode('bundle 1', bytesOf(30))
    const other = toBase64(bytesOf(30, 5))
    expect(memo.decode('bundle 1', other)).toEqual(fromBase64(other))
    expect(memo.decode('bundle 1', 'QR==')).toBeUndefined()
  })

  it('encodes a head and tail joined as toBase64 does, whether the head is a view of what it decoded or any other bytes', () => {
    const memo = base64MemoOf(new MemoryStore())
    const join = (head: Uint8Array, tail: Uint8Array) => new Uint8Array([...head, ...tail])
    for (let length = 1; length < 120; length += 1 + (length % 5)) {
      const text = toBase64(bytesOf(length, 4))
      for (const cut of [0, 1, Math.floor(length / 2), length]) {
        // Decoded afresh each round: the previous round's encode replaced what is remembered.
        const head = memo.decode('bundle 2', text)!.subarray(0, cut)
        const tail = bytesOf(7 + (length % 4), 5)
        expect(memo.encodeJoined('bundle 2', head, tail), `${length}/${cut}`).toBe(toBase64(join(head, tail)))
      }
      // A head with other bytes (or the same bytes in another array) is compared, never assumed.
      memo.decode('bundle 2', text)
      const other = bytesOf(length, 6)
      expect(memo.encodeJoined('bundle 2', other, bytesOf(3))).toBe(toBase64(join(other, bytesOf(3))))
      memo.decode('bundle 2', text)
      expect(memo.encodeJoined('bundle 2', bytesOf(length, 4), bytesOf(3))).toBe(toBase64(join(bytesOf(length, 4), bytesOf(3))))
    }
    // A view of another key's bytes is not taken for this key's.
    const a = memo.decode('bundle 3', toBase64(bytesOf(60, 7)))!
    memo.decode('bundle 4', toBase64(bytesOf(60, 8)))
    expect(memo.encodeJoined('bundle 4', a.subarray(0, 30), bytesOf(5))).toBe(toBase64(join(a.subarray(0, 30), bytesOf(5))))
  })

  it('keeps one memory per Store', () => {
    const first = base64MemoOf(new MemoryStore())
    const second = base64MemoOf(new MemoryStore())
    const text = first.encode('tile 0/0', bytesOf(64))
    expect(second.decode('tile 0/0', text)).toEqual(bytesOf(64))
    expect(second.encode('tile 0/0', bytesOf(96, 9))).toBe(toBase64(bytesOf(96, 9)))
  })
})
