/** The verifier's primitives on Node: native streaming SHA-256 over the parts (no copy), zlib's CRC-32 and node:crypto Ed25519. */
import { createHash, type Hash } from 'node:crypto'
import { sha256Hex } from '../digest/sha256.js'
import type { DigestWatch } from './marker-search.js'
import { nodeCrc32 } from './node-crc32.js'
import { nodeEd25519Verify } from './node-ed25519.js'
import type { DigestParts, VerifyOptions } from './verify.js'

const ONE_SHOT_MAX = 64 * 1024
/** A watched hash's chunk: small enough to stay in a core's L2 cache between the hash and the watcher. */
const WATCHED_CHUNK = 256 * 1024

/** `hash.update(bytes)`, chunk by chunk when watched: each chunk is shown to `watch` right after it is hashed, while it is in cache. */
export function updateWatched(hash: Hash, bytes: Uint8Array, watch?: (chunk: Uint8Array) => void): Hash {
  if (!watch) return hash.update(bytes)
  for (let at = 0; at < bytes.length; at += WATCHED_CHUNK) {
    const chunk = bytes.subarray(at, at + WATCHED_CHUNK)
    hash.update(chunk)
    watch(chunk)
  }
  return hash
}

/**
 * SHA-256 (hex) of bytes given as consecutive parts, synchronously: what sealing and the verifier
 * hash payloads and sealed files with on Node; `watch` sees each chunk right after it is hashed.
 */
export function sha256HexOfParts(parts: readonly Uint8Array[], watch?: DigestWatch): string {
  // One small part (a statement, a small package's payload or the whole small package): the native
  // one-shot hash, about half a Hash object's cost; Node's documentation keeps large inputs on the streaming hash.
  if (!watch && parts.length === 1 && parts[0]!.length <= ONE_SHOT_MAX) return sha256Hex(parts[0]!)
  const hash = createHash('sha256')
  parts.forEach((part, index) => updateWatched(hash, part, watch && ((chunk) => watch(chunk, index))))
  return hash.digest('hex')
}

export const nodeSha256Parts: DigestParts = sha256HexOfParts

export const nodeVerifyOptions: VerifyOptions = { digest: nodeSha256Parts, crc32: nodeCrc32, ed25519: nodeEd25519Verify }
