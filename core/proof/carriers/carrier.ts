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
  /**
   * Where `embed` inserts: the sealed bytes begin with exactly `payload[0, at)`, so one hash of
   * that prefix serves both the payload and the sealed digest. Undefined when the carrier
   * rewrites the whole file (the ZIP package).
   */
  insertionPoint?(payload: Uint8Array): number
  /** What `embed` inserts and where (carriers that insert rather than rewrite): `embed` = prefix + bytes + rest. */
  insertion?(payload: Uint8Array, proofBytes: Uint8Array): { readonly at: number; readonly bytes: Uint8Array }
  /** The payload and the proof's bytes, as found; callers check that embedding them again gives `sealed`. */
  extract(sealed: Uint8Array): Extraction
}
