/** What the log holds: small JSON leaves, hashed as their RFC 8785 canonical bytes. */
import type { Json } from '../../ports/store.js'
import { canonicalJson, canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex } from '../digest/sha256.js'
import { MAX_ENTRY_BYTES } from './tile-paths.js'

/**
 * A log leaf: a small JSON object naming what it proves. Its entry bytes are its RFC 8785
 * canonical JSON, so anyone holding the record can rebuild the leaf and its hash.
 *
 * @example { kind: 'public_proof', id: 'pp_…', sha256: '<hex digest of the record>' }
 */
export interface LogLeaf {
  readonly kind: string
  readonly [field: string]: Json
}

/** The bytes the Merkle tree hashes for `leaf` (and that entry bundles carry). */
export function leafEntryBytes(leaf: LogLeaf): Uint8Array {
  const bytes = canonicalJsonBytes(leaf)
  if (bytes.length > MAX_ENTRY_BYTES) throw new RangeError(`A log leaf is at most ${MAX_ENTRY_BYTES} bytes of canonical JSON`)
  return bytes
}

/**
 * The RFC 9162 leaf hash of `leaf` (SHA-256 of 0x00 and its entry bytes) in lowercase hex, as
 * `/log/proof/leaf/{hash}` names it. Hashed as text: U+0000 is the byte 0x00 in UTF-8, so one
 * native call hashes and writes the hex, where the bytes, a copy with the prefix and a hex loop
 * cost a transfer several allocations.
 */
export function leafHashHex(leaf: LogLeaf): string {
  return sha256Hex(`\u0000${canonicalJson(leaf)}`)
}
