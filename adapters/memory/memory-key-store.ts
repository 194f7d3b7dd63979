/**
 * KeyStore in process memory: Ed25519 (EdDSA) and P-256 (ES256) keys made on first use, gone when
 * the process ends. A deployment with `--data-dir` keeps its keys in a FileKeyStore instead.
 */
import { KeyRing } from '../shared/key-ring.js'

/** The adapter's name, as configuration and logs spell it. */
export const MEMORY_KEY_STORE_NAME = 'memory'

/**
 * @example
 * const keys = new MemoryKeyStore()
 * const key = await keys.current('EdDSA')
 * const signature = await key.sign(new TextEncoder().encode('payload'))
 */
export class MemoryKeyStore extends KeyRing {
  constructor() {
    super()
  }
}
