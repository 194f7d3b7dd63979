/**
 * SHA-256 of bytes, synchronously: node:crypto's native one where the runtime offers it without an
 * import (`process.getBuiltinModule`, Node ≥ 20.16), @noble/hashes elsewhere — the browser
 * verifier bundles this file unchanged. Every seal hashes its leaf and a few tree nodes, and the
 * JavaScript SHA-256 cost several times the native one there.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'

type NativeHash = (algorithm: 'sha256', data: Uint8Array, encoding: 'buffer') => Uint8Array

function nativeHash(): NativeHash | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  if (typeof runtime?.getBuiltinModule !== 'function') return undefined
  const crypto = runtime.getBuiltinModule('node:crypto') as { hash?: NativeHash } | undefined
  return typeof crypto?.hash === 'function' ? crypto.hash : undefined
}

const native = nativeHash()

/** @example sha256(new Uint8Array()) // e3b0c442… */
export function sha256(bytes: Uint8Array): Uint8Array {
  // A plain Uint8Array of its own, as @noble returns (a Buffer may be a view into a shared pool).
  return native ? new Uint8Array(native('sha256', bytes, 'buffer')) : nobleSha256(bytes)
}
