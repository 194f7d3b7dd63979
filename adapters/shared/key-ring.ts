/**
 * The KeyStore behaviour every key store shares: one current key per algorithm made on first use,
 * rotation that retires the current key but keeps publishing it, and a JWKS of every key, newest
 * first. Calls run one at a time so two first uses of an algorithm make one key. Where the keys live
 * between runs is the `KeyRingStorage` (none for MemoryKeyStore, a file for FileKeyStore).
 */
import type { KeyStore, PublicJwk, SigningAlgorithm, SigningKey } from '../../ports/key-store.js'
import { generateHeldKey, toSigningKey, type HeldKey } from './held-key.js'

/** Where a key ring keeps its keys between runs. */
export interface KeyRingStorage {
  /** The keys kept so far, oldest first. */
  load(): Promise<readonly HeldKey[]>
  /** Keep `keys` (oldest first); the ring changes only after this resolves. */
  save(keys: readonly HeldKey[]): Promise<void>
}

const NOWHERE: KeyRingStorage = { load: async () => [], save: async () => undefined }

/** @example class MemoryKeyStore extends KeyRing {} */
export class KeyRing implements KeyStore {
  private keys: readonly HeldKey[] | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly storage: KeyRingStorage = NOWHERE) {}

  current(alg: SigningAlgorithm): Promise<SigningKey> {
    return this.serially(async () => {
      const keys = await this.loaded()
      const current = keys.find((key) => key.alg === alg && !key.retired)
      return toSigningKey(current ?? (await this.replaceCurrent(keys, alg)))
    })
  }

  rotate(alg: SigningAlgorithm): Promise<SigningKey> {
    return this.serially(async () => toSigningKey(await this.replaceCurrent(await this.loaded(), alg)))
  }

  jwks(): Promise<{ readonly keys: readonly PublicJwk[] }> {
    return this.serially(async () => ({ keys: [...(await this.loaded())].reverse().map((key) => key.publicJwk) }))
  }

  /** A new current key for `alg`; the old one, if any, is kept as retired. */
  private async replaceCurrent(keys: readonly HeldKey[], alg: SigningAlgorithm): Promise<HeldKey> {
    const fresh = await generateHeldKey(alg)
    const next = [...keys.map((key) => (key.alg === alg && !key.retired ? { ...key, retired: true } : key)), fresh]
    await this.storage.save(next)
    this.keys = next
    return fresh
  }

  private async loaded(): Promise<readonly HeldKey[]> {
    this.keys ??= await this.storage.load()
    return this.keys
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task)
    this.queue = result.catch(() => undefined)
    return result
  }
}
