/**
 * The KeyStore behaviour every key store shares: one current key per algorithm and purpose made on
 * first use, rotation that retires the current key but keeps publishing it, token keys replaced on
 * a schedule and unpublished once every token they signed has expired, proof keys published for
 * good. Where the keys live is the `KeyRingStorage` (process memory, a locked file, the Store);
 * every decision that writes is taken inside `storage.update`, on the latest keys, so processes
 * sharing a storage agree on one current key and lose none.
 */
import type { Clock } from '../../ports/clock.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { KeyPurpose, KeyStore, PublicJwk, SigningAlgorithm, SigningKey } from '../../ports/key-store.js'
import { generateKeyRecord, heldKeyFromRecord, toSigningKey, type HeldKey, type KeyRecord } from './held-key.js'

/** Where a key ring keeps its keys. */
export interface KeyRingStorage {
  /** The keys kept now, oldest first. */
  read(): Promise<readonly KeyRecord[]>
  /**
   * Read the latest keys and keep what `change` returns (undefined: keep them as they are), with no
   * other writer in between — across every process that shares this storage. Resolves with the keys
   * as kept; the ring changes only after this resolves.
   */
  update(change: (records: readonly KeyRecord[]) => Promise<readonly KeyRecord[] | undefined>): Promise<readonly KeyRecord[]>
}

const DAY_MS = 24 * 60 * 60 * 1000

/** How a key ring rotates and publishes token keys, and how often it looks for other processes' changes. */
export interface KeyRingOptions {
  /** @default the system clock */
  readonly clock?: Clock
  /**
   * A token key older than this is replaced by a new one on next use; 0 turns scheduled rotation off.
   * Proof keys only rotate when asked. @default 30 days
   */
  readonly tokenKeyRotationMs?: number
  /**
   * How long a retired token key stays published: the longest lifetime of any token a key signs
   * (plus the refresh interval, the time another process may still sign with it). @default 1 day
   */
  readonly maxTokenLifetimeMs?: number
  /** `current` reads the storage again when its view is older than this, to see other processes' rotations. @default 60 s */
  readonly refreshMs?: number
}

export const DEFAULT_TOKEN_KEY_ROTATION_MS = 30 * DAY_MS
export const DEFAULT_MAX_TOKEN_LIFETIME_MS = DAY_MS
export const DEFAULT_REFRESH_MS = 60_000

const SYSTEM_CLOCK: Clock = { now: () => Date.now() }

/** Storage in this process only (MemoryKeyStore). */
export function memoryKeyRingStorage(): KeyRingStorage {
  let kept: readonly KeyRecord[] = []
  return {
    read: async () => kept,
    update: async (change) => (kept = (await change(kept)) ?? kept),
  }
}

/** @example class MemoryKeyStore extends KeyRing {} */
export class KeyRing implements KeyStore {
  private records: readonly KeyRecord[] = []
  private readAtMs: number | undefined
  private readonly held = new Map<string, HeldKey>()
  private queue: Promise<unknown> = Promise.resolve()
  private readonly clock: Clock
  private readonly rotationMs: number
  private readonly maxTokenLifetimeMs: number
  private readonly refreshMs: number

  constructor(
    private readonly storage: KeyRingStorage = memoryKeyRingStorage(),
    options: KeyRingOptions = {},
  ) {
    this.clock = options.clock ?? SYSTEM_CLOCK
    this.rotationMs = options.tokenKeyRotationMs ?? DEFAULT_TOKEN_KEY_ROTATION_MS
    this.maxTokenLifetimeMs = options.maxTokenLifetimeMs ?? DEFAULT_MAX_TOKEN_LIFETIME_MS
    this.refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS
  }

  current(alg: SigningAlgorithm, purpose: KeyPurpose = 'token'): Promise<SigningKey> {
    return this.serially(async () => {
      const seen = currentOf(await this.recent(this.refreshMs), alg, purpose)
      if (seen !== undefined && !this.due(seen)) return this.signingKey(seen)
      // Decide again on the latest keys: another process may have made or rotated the key meanwhile.
      const kept = await this.update(async (records) => {
        const latest = currentOf(records, alg, purpose)
        if (latest !== undefined && !this.due(latest)) return undefined
        return this.replaceCurrent(records, alg, purpose)
      })
      return this.signingKey(currentOf(kept, alg, purpose)!)
    })
  }

  rotate(alg: SigningAlgorithm, purpose: KeyPurpose = 'token'): Promise<SigningKey> {
    return this.serially(async () => {
      let made: KeyRecord | undefined
      await this.update(async (records) => {
        const next = await this.replaceCurrent(records, alg, purpose)
        made = next.at(-1)
        return next
      })
      return this.signingKey(made!)
    })
  }

  jwks(purpose: KeyPurpose = 'token'): Promise<{ readonly keys: readonly PublicJwk[] }> {
    return this.serially(async () => {
      // Always the latest keys: a verifier asks here when it meets a kid it does not know.
      const published = (await this.recent(0)).filter((record) => record.purpose === purpose && this.published(record))
      const keys: PublicJwk[] = []
      for (const record of [...published].reverse()) keys.push((await this.heldKey(record)).publicJwk)
      return { keys }
    })
  }

  /** Retire the current key of `alg`/`purpose`, append a fresh one, and drop token keys past their window. */
  private async replaceCurrent(records: readonly KeyRecord[], alg: SigningAlgorithm, purpose: KeyPurpose): Promise<KeyRecord[]> {
    const now = this.clock.now()
    const fresh = await generateKeyRecord(alg, purpose, now)
    const retiring = (record: KeyRecord) => record.alg === alg && record.purpose === purpose && record.retiredAt === undefined
    const kept = records.filter((record) => this.published(record)).map((record) => (retiring(record) ? { ...record, retiredAt: now } : record))
    return [...kept, fresh]
  }

  /** Whether a token key is old enough to be replaced on next use. */
  private due(record: KeyRecord): boolean {
    return record.purpose === 'token' && this.rotationMs > 0 && this.clock.now() - record.createdAt >= this.rotationMs
  }

  /** Current keys, proof keys, and token keys retired less than the longest token lifetime ago. */
  private published(record: KeyRecord): boolean {
    if (record.retiredAt === undefined || record.purpose === 'proof') return true
    return this.clock.now() < record.retiredAt + this.maxTokenLifetimeMs
  }

  private async update(change: (records: readonly KeyRecord[]) => Promise<readonly KeyRecord[] | undefined>): Promise<readonly KeyRecord[]> {
    const kept = await this.storage.update(change)
    this.remember(kept)
    return kept
  }

  /** The storage's keys as read at most `maxAgeMs` ago. */
  private async recent(maxAgeMs: number): Promise<readonly KeyRecord[]> {
    const now = this.clock.now()
    if (this.readAtMs === undefined || maxAgeMs === 0 || Math.abs(now - this.readAtMs) >= maxAgeMs) this.remember(await this.storage.read())
    return this.records
  }

  private remember(records: readonly KeyRecord[]): void {
    this.records = records
    this.readAtMs = this.clock.now()
  }

  private async signingKey(record: KeyRecord): Promise<SigningKey> {
    return toSigningKey(await this.heldKey(record))
  }

  /** Private keys are imported once per kid; a kid names one key for good (RFC 7638 thumbprint). */
  private async heldKey(record: KeyRecord): Promise<HeldKey> {
    let held = this.held.get(record.kid)
    if (held === undefined) {
      try {
        held = await heldKeyFromRecord(record)
      } catch (error) {
        // A key that cannot be read is a key damaged at rest: nothing signs with it until someone repairs the storage.
        throw new PortUnavailableError('KeyStore', `key ${record.kid} cannot be read`, { cause: error })
      }
      this.held.set(record.kid, held)
    }
    return held
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task)
    this.queue = result.catch(() => undefined)
    return result
  }
}

function currentOf(records: readonly KeyRecord[], alg: SigningAlgorithm, purpose: KeyPurpose): KeyRecord | undefined {
  return records.findLast((record) => record.alg === alg && record.purpose === purpose && record.retiredAt === undefined)
}
