/**
 * A sealed file held as the parts its carrier wrote: views into the original payload around the
 * small proof bytes. Hashing or sending the parts needs no file-sized copy; `bytes` joins them
 * once, on first read, for the callers that need one array (a JSON answer's base64, tests).
 */
import { concatBytes } from './bytes.js'

export interface SealedFile {
  readonly parts: readonly Uint8Array[]
  readonly length: number
  /** The parts joined (a copy of the whole file, made on first read and kept). */
  readonly bytes: Uint8Array
}

export function sealedFileOf(parts: readonly Uint8Array[]): SealedFile {
  return new PartsOfFile(parts)
}

/**
 * A class, not an object literal with a getter: V8 builds a literal with accessors on a slow path
 * (about 2 µs, once per seal); the getter on the prototype costs nothing per file.
 */
class PartsOfFile implements SealedFile {
  readonly length: number
  #joined: Uint8Array | undefined

  constructor(readonly parts: readonly Uint8Array[]) {
    this.length = parts.reduce((sum, part) => sum + part.length, 0)
  }

  get bytes(): Uint8Array {
    return (this.#joined ??= this.parts.length === 1 ? this.parts[0]! : concatBytes(...this.parts))
  }
}
