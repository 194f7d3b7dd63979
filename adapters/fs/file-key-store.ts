/**
 * KeyStore whose keys survive restarts: every key (current and retired) as a private JWK in one JSON
 * file, readable by its owner only (mode 0600), replaced atomically on every change. Several
 * processes may share the file (hosts on one `--data-dir`, or on a shared volume): every change is
 * made under an exclusive lock (`<file>.lock`, proper-lockfile: a directory made atomically, kept
 * fresh while held, taken over when stale) on the keys read again inside the lock, so two processes
 * never split into two current keys or drop each other's keys. A process stalled past the lock's
 * stale time may find the lock taken over: the file is only replaced if it still holds what was read
 * (compared just before the rename), else the change is made again on the keys now there.
 */
import { readFileSync, renameSync, rmSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createPrivateKey, type JsonWebKey } from 'node:crypto'
import lockfile from 'proper-lockfile'
import { PortUnavailableError } from '../../ports/errors.js'
import type { KeyPurpose, SigningAlgorithm } from '../../ports/key-store.js'
import { heldKeyOf, type KeyRecord } from '../shared/held-key.js'
import { KeyRing, type KeyRingOptions, type KeyRingStorage } from '../shared/key-ring.js'
import { syncDirectory, writeTempFile } from './durable-file.js'
import { hasErrorCode, translatingFsErrors } from './fs-errors.js'

/** The adapter's name, as configuration and logs spell it. */
export const FILE_KEY_STORE_NAME = 'file'

export interface FileKeyStoreOptions extends KeyRingOptions {
  /** The JSON file of the keys (created with its directory on the first key). */
  readonly file: string
  /** How long a change waits for another process's lock before failing. @default 30 s */
  readonly lockWaitMs?: number
}

/** The file's content (v2: purposes and dates; a v1 file, read as token keys made now, is rewritten as v2 when first read). */
type KeyFile =
  | { readonly format: 'cairn.keys.v1'; readonly keys: readonly { readonly alg: SigningAlgorithm; readonly retired: boolean; readonly jwk: JsonWebKey }[] }
  | { readonly format: 'cairn.keys.v2'; readonly keys: readonly FileKey[] }

/** One key as the v2 file keeps it; dates as RFC 3339 strings. */
interface FileKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly purpose: KeyPurpose
  readonly createdAt: string
  readonly retiredAt?: string
  readonly jwk: JsonWebKey
}

const PORT = 'KeyStore'
/** A lock not refreshed for this long belongs to a process that died; it is taken over. */
const STALE_LOCK_MS = 10_000
/** Reads, changes and writes under one lock before giving up when the file keeps changing. */
const MAX_TRIES = 3

/**
 * @example
 * const keys = new FileKeyStore({ file: '/var/lib/cairn/keys.json' })
 * const key = await keys.current('ES256')
 */
export class FileKeyStore extends KeyRing {
  constructor(options: FileKeyStoreOptions | string) {
    const settings = typeof options === 'string' ? { file: options } : options
    super(fileKeyRingStorage(settings.file, settings.lockWaitMs ?? 30_000, () => (settings.clock ?? { now: Date.now }).now()), settings)
  }
}

/** The key file as a KeyRing keeps it; exported for tests of the lock and the version check. */
export function fileKeyRingStorage(file: string, lockWaitMs: number, now: () => number): KeyRingStorage {
  const update: KeyRingStorage['update'] = (change) =>
    translatingFsErrors(PORT, async () => {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 })
      return withFileLock(file, lockWaitMs, async (stillHeld) => {
        for (let tries = 1; ; tries++) {
          const { records, legacy, text } = await readKeyFile(file, now)
          const next = (await change(records)) ?? (legacy ? records : undefined)
          if (next === undefined) return records
          stillHeld()
          // Written only over the very file read above: a process that took the lock over while this
          // one stalled may have written meanwhile, and its keys must not be overwritten.
          if (await replaceKeyFileIfUnchanged(file, next, text)) return next
          if (tries >= MAX_TRIES) throw new PortUnavailableError(PORT, `${file} kept changing while this process held its lock`)
        }
      })
    })
  return {
    read: async () => {
      const { records, legacy } = await translatingFsErrors(PORT, () => readKeyFile(file, now))
      // A v1 file has no dates: write it down as v2 once, so its keys age from now on.
      return legacy ? update(async () => undefined) : records
    },
    update,
  }
}

/** Run `task` holding the exclusive lock of `file`; `stillHeld()` throws if the lock was lost meanwhile. */
async function withFileLock<T>(file: string, waitMs: number, task: (stillHeld: () => void) => Promise<T>): Promise<T> {
  let lost: Error | undefined
  const release = await acquire(file, waitMs, (error) => (lost = error))
  try {
    return await task(() => {
      if (lost) throw new PortUnavailableError(PORT, `the lock of ${file} was lost before the keys were written`, { cause: lost })
    })
  } finally {
    await release().catch(() => undefined)
  }
}

/** Take the lock, waiting up to `waitMs` (randomised backoff, 5 to 200 ms) while a live process holds it. */
async function acquire(file: string, waitMs: number, onLost: (error: Error) => void): Promise<() => Promise<void>> {
  const deadline = Date.now() + waitMs
  for (let pauseMs = 5; ; pauseMs = Math.min(200, pauseMs * 2)) {
    try {
      return await lockfile.lock(file, { realpath: false, stale: STALE_LOCK_MS, onCompromised: onLost })
    } catch (error) {
      if (!hasErrorCode(error, 'ELOCKED')) throw error
      if (Date.now() >= deadline) throw new PortUnavailableError(PORT, `${file} stayed locked by another process for ${waitMs} ms`, { cause: error })
      await new Promise((resolve) => setTimeout(resolve, pauseMs / 2 + Math.random() * pauseMs))
    }
  }
}

/** The keys, whether the file is v1, and its exact text (its version; null when there is no file). */
async function readKeyFile(file: string, now: () => number): Promise<{ records: readonly KeyRecord[]; legacy: boolean; text: string | null }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return { records: [], legacy: false, text: null }
    throw error
  }
  try {
    const content = JSON.parse(text) as KeyFile
    return { records: await recordsOf(content, now), legacy: content.format === 'cairn.keys.v1', text }
  } catch (error) {
    // Keys that cannot be read are keys damaged at rest: the port cannot sign until someone repairs the file.
    throw new PortUnavailableError(PORT, `${file} is not a Cairn key file that can be read`, { cause: error })
  }
}

async function recordsOf(content: KeyFile, now: () => number): Promise<readonly KeyRecord[]> {
  if (content.format === 'cairn.keys.v2') {
    return content.keys.map((key) => ({
      kid: requireString(key.kid),
      alg: algorithmOf(key.alg),
      purpose: purposeOf(key.purpose),
      createdAt: dateOf(key.createdAt),
      ...(key.retiredAt === undefined ? {} : { retiredAt: dateOf(key.retiredAt) }),
      privateJwk: key.jwk,
    }))
  }
  if (content.format === 'cairn.keys.v1') {
    // v1 kept no dates: count the keys as made (or retired) now, which only keeps them published longer.
    const at = now()
    return Promise.all(
      content.keys.map(async (key) => {
        // v1 did not write kids down: derive each from its key.
        const { kid } = await heldKeyOf(createPrivateKey({ key: key.jwk, format: 'jwk' }), algorithmOf(key.alg), 'token')
        return { kid, alg: key.alg, purpose: 'token' as const, createdAt: at, ...(key.retired ? { retiredAt: at } : {}), privateJwk: key.jwk }
      }),
    )
  }
  throw new TypeError('unknown format')
}

function algorithmOf(alg: unknown): SigningAlgorithm {
  if (alg === 'EdDSA' || alg === 'ES256' || alg === 'RS256') return alg
  throw new TypeError(`${String(alg)} is not a signing algorithm`)
}

function purposeOf(purpose: unknown): KeyPurpose {
  if (purpose === 'token' || purpose === 'proof') return purpose
  throw new TypeError(`${String(purpose)} is not a key purpose`)
}

/**
 * Replace the key file with `records` if it still holds `expected` (null: no file): false, writing
 * nothing, when it changed. The temporary file is written and fsynced first; the comparison and the
 * rename then run synchronously, so no stall of this process fits between them.
 */
async function replaceKeyFileIfUnchanged(file: string, records: readonly KeyRecord[], expected: string | null): Promise<boolean> {
  const content: KeyFile = {
    format: 'cairn.keys.v2',
    keys: records.map((record) => ({
      kid: record.kid,
      alg: record.alg,
      purpose: record.purpose,
      createdAt: new Date(record.createdAt).toISOString(),
      ...(record.retiredAt === undefined ? {} : { retiredAt: new Date(record.retiredAt).toISOString() }),
      jwk: record.privateJwk,
    })),
  }
  const temp = await writeTempFile(dirname(file), [new TextEncoder().encode(`${JSON.stringify(content, null, 2)}\n`)], 0o600)
  let unchanged: boolean
  try {
    unchanged = currentText(file) === expected
    if (unchanged) renameSync(temp, file)
  } finally {
    rmSync(temp, { force: true })
  }
  if (unchanged) await syncDirectory(dirname(file))
  return unchanged
}

function currentText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return null
    throw error
  }
}

function dateOf(text: string): number {
  const ms = Date.parse(requireString(text))
  if (Number.isNaN(ms)) throw new TypeError(`${text} is not a date`)
  return ms
}

function requireString(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError('a key file member is not a string')
  return value
}
