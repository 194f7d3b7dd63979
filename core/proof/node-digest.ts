/** The verifier's primitives on Node: native streaming SHA-256 over the parts (no copy), zlib's CRC-32 and node:crypto Ed25519. */
import { createHash } from 'node:crypto'
import { sha256Hex } from '../digest/sha256.js'
import { nodeCrc32 } from './node-crc32.js'
import { nodeEd25519Verify } from './node-ed25519.js'
import type { DigestParts, VerifyOptions } from './verify.js'

const ONE_SHOT_MAX = 64 * 1024

/** SHA-256 (hex) of bytes given as consecutive parts, synchronously: what sealing and the verifier hash payloads and sealed files with on Node. */
export function sha256HexOfParts(parts: readonly Uint8Array[]): string {
  // One small part (a statement, a small package's payload or the whole small package): the native
  // one-shot hash, about half a Hash object's cost; Node's documentation keeps large inputs on the streaming hash.
  if (parts.length === 1 && parts[0]!.length <= ONE_SHOT_MAX) return sha256Hex(parts[0]!)
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest('hex')
}

export const nodeSha256Parts: DigestParts = sha256HexOfParts

export const nodeVerifyOptions: VerifyOptions = { digest: nodeSha256Parts, crc32: nodeCrc32, ed25519: nodeEd25519Verify }
