/** What the log holds: small JSON leaves, hashed as their RFC 8785 canonical bytes. */
import type { Json } from '../../ports/store.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
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

