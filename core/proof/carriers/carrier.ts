/** What every carrier does: put a proof into a payload's bytes and take it out again, exactly. */
import type { CarrierName } from '../format.js'

export type Extraction =
  | { readonly kind: 'sealed'; readonly payload: Uint8Array; readonly proofBytes: Uint8Array }
  | { readonly kind: 'unsealed' }
  | { readonly kind: 'malformed'; readonly error: string }
  | { readonly kind: 'multiple'; readonly error: string }

export interface Carrier {
  readonly name: CarrierName
  /** Whether `bytes` (sealed or not) are in this carrier's format, judged by their content. */
  recognises(bytes: Uint8Array): boolean
  /** Why `payload` cannot carry a proof (truncated, malformed), or undefined when it can. */
  problem(payload: Uint8Array): string | undefined
  /** The sealed bytes. Deterministic: the same payload, proof and name always give the same bytes. */
  embed(payload: Uint8Array, proofBytes: Uint8Array, fileName: string): Uint8Array
  /** The payload and the proof's bytes, as found; callers check that embedding them again gives `sealed`. */
  extract(sealed: Uint8Array): Extraction
}
