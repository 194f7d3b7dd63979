/**
 * The log's partial tiles and entry bundle as this process last wrote them, per Store: base64
 * text and bytes side by side. Every seal reads the partial tile and bundle back and writes them
 * one leaf longer, which decoded and encoded tens of kilobytes of base64 each time. Now a text the
 * Store returns that equals the remembered text gives the remembered bytes, and bytes that extend
 * the remembered bytes have only their new tail encoded. Anything else (another host wrote, the
 * Store was replaced, a tile rewritten) decodes and encodes in full, so the answers never change.
 */
import type { Store } from '../../ports/store.js'
import { fromBase64, toBase64 } from './base64.js'
import { storeTileReader } from './log-store.js'
import type { ReadTile } from './tile-hashes.js'

/** Edge documents are a handful (one bundle, one partial tile per level): room for them and their successors. */
const CAPACITY = 16

interface Remembered {
  readonly text: string
  /** Never handed out for writing: callers copy (slice) before changing anything. */
  readonly bytes: Uint8Array
}

export interface Base64Memo {
  decode(key: string, text: string): Uint8Array | undefined
  encode(key: string, bytes: Uint8Array): string
  /**
   * `head` then `tail`, joined and encoded. When `head` is a view of the start of the bytes this
   * memo remembers for `key` (what `decode` answered), they are known equal without comparing
   * them; anything else is compared as `encode` does.
   */
  encodeJoined(key: string, head: Uint8Array, tail: Uint8Array): string
}

/** One memo per Store, made once (integration and the receipt after it ask for it on every seal). */
const memos = new WeakMap<Store, Base64Memo>()

export function base64MemoOf(store: Store): Base64Memo {
  let memo = memos.get(store)
  if (!memo) memos.set(store, (memo = newMemo()))
  return memo
}

/** Tiles as the Store holds them, decoded through its memo: the edge tiles integration just wrote are not decoded from base64 again. */
export function memoTileReader(store: Store): ReadTile {
  const memo = base64MemoOf(store)
  return storeTileReader(store, (key, text) => memo.decode(`tile ${key}`, text))
}

function newMemo(): Base64Memo {
  const memo = new Map<string, Remembered>()
  const remember = (key: string, text: string, bytes: Uint8Array) => {
    memo.delete(key)
    if (memo.size >= CAPACITY) memo.delete(memo.keys().next().value!)
    memo.set(key, { text, bytes })
  }
  return {
    decode(key, text) {
      const found = memo.get(key)
      if (found?.text === text) return found.bytes
      const bytes = fromBase64(text)
      if (bytes) remember(key, text, bytes)
      return bytes
    },
    encode(key, bytes) {
      const found = memo.get(key)
      const text = found && startsWith(bytes, found.bytes) ? extendedText(found, found.bytes.length, bytes) : toBase64(bytes)
      remember(key, text, bytes)
      return text
    },
    encodeJoined(key, head, tail) {
      const bytes = new Uint8Array(head.length + tail.length)
      bytes.set(head)
      bytes.set(tail, head.length)
      const found = memo.get(key)
      if (!found || head.buffer !== found.bytes.buffer || head.byteOffset !== found.bytes.byteOffset || head.length > found.bytes.length) return this.encode(key, bytes)
      const text = extendedText(found, head.length, bytes)
      remember(key, text, bytes)
      return text
    },
  }
}

/** Base64 of `bytes`, whose first `same` bytes are the remembered ones: base64 encodes 3 bytes as 4 characters, so the remembered text up to the last whole group of them stands. */
function extendedText(found: Remembered, same: number, bytes: Uint8Array): string {
  const whole = Math.floor(same / 3)
  return found.text.slice(0, whole * 4) + toBase64(bytes.subarray(whole * 3))
}

/** Whether `bytes` begins with `prefix` (compared four bytes at a time where both line up). */
function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > bytes.length) return false
  let i = 0
  if (bytes.byteOffset % 4 === 0 && prefix.byteOffset % 4 === 0) {
    const words = prefix.length >>> 2
    const a = new Uint32Array(bytes.buffer, bytes.byteOffset, words)
    const b = new Uint32Array(prefix.buffer, prefix.byteOffset, words)
    for (; i < words; i++) if (a[i] !== b[i]) return false
    i = words << 2
  }
  for (; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false
  return true
}
