/**
 * KeyStore in process memory: EdDSA, ES256 and RS256 keys of each purpose made on first use, gone
 * when the process ends. A deployment with `--data-dir` keeps its keys in a FileKeyStore instead,
 * one on MongoDB in a StoreKeyStore.
 */
import { KeyRing, memoryKeyRingStorage, type KeyRingOptions } from '../shared/key-ring.js'

/** The adapter's name, as configuration and logs spell it. */
export const MEMORY_KEY_STORE_NAME = 'memory'

/**
 * @example
 * const keys = new MemoryKeyStore()
 * const key = await keys.current('EdDSA')
 * const signature = await key.sign(new TextEncoder().encode('payload'))
 */
export class MemoryKeyStore extends KeyRing {
  constructor(options: KeyRingOptions = {}) {
    super(memoryKeyRingStorage(), options)
  }
}
