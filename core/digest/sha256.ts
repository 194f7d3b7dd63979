/**
 * SHA-256 as lowercase hex: the content address of bytes and the value of every digest. Node's
 * native one-shot `crypto.hash` where the runtime offers it without an import
 * (`process.getBuiltinModule`, Node ≥ 20.16; about half the cost of a Hash object for the small
 * inputs most digests are), @noble/hashes elsewhere: browsers bundle this file unchanged, so
 * `cairn/client` computes plan and chain digests with the server's own code.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { canonicalJson } from './canonical-json.js'

type NativeHash = <E extends 'hex' | 'latin1' | 'buffer'>(algorithm: 'sha256', data: Uint8Array | string, encoding: E) => E extends 'buffer' ? Uint8Array : string

function nativeHash(): NativeHash | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  if (typeof runtime?.getBuiltinModule !== 'function') return undefined
  const crypto = runtime.getBuiltinModule('node:crypto') as { hash?: NativeHash } | undefined
  return typeof crypto?.hash === 'function' ? crypto.hash : undefined
}

const native = nativeHash()
const encoder = new TextEncoder()
const asBytes = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data)

/**
 * @example sha256Hex(new Uint8Array()) // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  return native ? native('sha256', bytes, 'hex') : bytesToHex(nobleSha256(asBytes(bytes)))
}

/** SHA-256 as bytes of their own (not a view into a shared Buffer pool). @example sha256Bytes('abc').length // 32 */
export function sha256Bytes(bytes: Uint8Array | string): Uint8Array {
  if (!native) return nobleSha256(asBytes(bytes))
  // The digest as a latin1 string (one character per byte) copied into 32 bytes on V8's heap: half
  // the cost of the Buffer Node allocates off-heap for it, and the Merkle tree hashes dozens per seal.
  const text = native('sha256', bytes, 'latin1')
  const digest = new Uint8Array(32)
  for (let i = 0; i < 32; i++) digest[i] = text.charCodeAt(i)
  return digest
}

/** SHA-256 over the RFC 8785 canonical JSON of `value` (its UTF-8 bytes; the hash encodes the text itself, without a copy). */
export function sha256OfJson(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}
