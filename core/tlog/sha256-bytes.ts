/**
 * SHA-256 of bytes, synchronously, under the name the transparency log code uses: the kernel's
 * digest (native in Node, @noble/hashes in browsers; the browser verifier bundles it unchanged).
 */
import { sha256Bytes } from '../digest/sha256.js'

/** @example sha256(new Uint8Array()) // e3b0c442… */
export const sha256 = (bytes: Uint8Array): Uint8Array => sha256Bytes(bytes)
