/**
 * The two digests of a seal from one pass over the payload: the sealed bytes begin with the
 * payload's bytes up to the carrier's insertion point, so that prefix is hashed once and the hash
 * state forked (node:crypto `Hash.copy`): once finished with the payload's tail (the payload
 * digest), once continued with the sealed bytes' tail (the sealed digest).
 */
import { createHash, type Hash } from 'node:crypto'
import type { Carrier } from './carriers/index.js'

export interface SealDigests {
  readonly payloadSha256: string
  sealedSha256(sealed: Uint8Array): string
}

export function sealDigests(carrier: Carrier, payload: Uint8Array): SealDigests {
  const at = carrier.insertionPoint?.(payload)
  if (at === undefined) {
    const payloadSha256 = createHash('sha256').update(payload).digest('hex')
    return { payloadSha256, sealedSha256: (sealed) => createHash('sha256').update(sealed).digest('hex') }
  }
  const prefix: Hash = createHash('sha256').update(payload.subarray(0, at))
  const payloadSha256 = prefix.copy().update(payload.subarray(at)).digest('hex')
  return { payloadSha256, sealedSha256: (sealed) => prefix.update(sealed.subarray(at)).digest('hex') }
}
