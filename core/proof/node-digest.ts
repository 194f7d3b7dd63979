/** The verifier's payload digest on Node: node:crypto's streaming SHA-256 over the parts, no copy. */
import { createHash } from 'node:crypto'
import type { DigestParts } from './verify.js'

export const nodeSha256Parts: DigestParts = (parts) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest('hex')
}
