/** The verifier's primitives on Node: native streaming SHA-256 over the parts (no copy), zlib's CRC-32 and node:crypto Ed25519. */
import { createHash } from 'node:crypto'
import { nodeCrc32 } from './node-crc32.js'
import { nodeEd25519Verify } from './node-ed25519.js'
import type { DigestParts, VerifyOptions } from './verify.js'

export const nodeSha256Parts: DigestParts = (parts) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest('hex')
}

export const nodeVerifyOptions: VerifyOptions = { digest: nodeSha256Parts, crc32: nodeCrc32, ed25519: nodeEd25519Verify }
