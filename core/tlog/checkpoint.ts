/**
 * C2SP tlog-checkpoint: the note text `<origin>\n<tree size>\n<base64 root hash>\n` plus optional
 * extension lines, signed as a C2SP signed note by the log's Ed25519 key (key name = origin).
 */
import { fromBase64, toBase64 } from './base64.js'
import { HASH_SIZE } from './merkle.js'
import { nobleEd25519Verify, openNote, parseVerifierKey, type Ed25519Verify, type NoteVerifierKey } from './signed-note.js'
import { keyIdentity, rememberCheckpoint, rememberedCheckpoint } from './verified-checkpoints.js'

export interface Checkpoint {
  readonly origin: string
  readonly size: number
  readonly rootHash: Uint8Array
}

/** @example checkpointText({ origin: 'example.com/log', size: 0, rootHash }) // 'example.com/log\n0\n47DEQ…=\n' */
export function checkpointText(checkpoint: Checkpoint): string {
  return `${checkpoint.origin}\n${checkpoint.size}\n${toBase64(checkpoint.rootHash)}\n`
}

export function parseCheckpointText(text: string): Checkpoint | undefined {
  const lines = text.split('\n')
  if (lines.length < 4 || lines.at(-1) !== '') return undefined
  const [origin, sizeText, rootText] = lines as [string, string, string]
  if (origin === '' || !/^(0|[1-9]\d*)$/.test(sizeText)) return undefined
  const size = Number(sizeText)
  const rootHash = fromBase64(rootText)
  if (!Number.isSafeInteger(size) || rootHash?.length !== HASH_SIZE) return undefined
  return { origin, size, rootHash }
}

export type OpenedCheckpoint = { readonly ok: true; readonly checkpoint: Checkpoint } | { readonly ok: false; readonly error: string }

/** A log key with the identity its verified notes are remembered under. */
interface PinnedKey {
  readonly key: NoteVerifierKey
  readonly identity: string
}

/**
 * Key texts parsed before (parsing is a pure function of the text): a verifier is handed the same
 * pinned key for every file, and parsing it again (a pattern, base64, key ID) cost more than a
 * remembered checkpoint's whole lookup. The parsed keys never leave this module.
 */
const pinnedKeys = new Map<string, PinnedKey>()
const PINNED_KEYS_CAPACITY = 64

function pinnedKey(logKey: string | NoteVerifierKey): PinnedKey | undefined {
  if (typeof logKey !== 'string') return { key: logKey, identity: keyIdentity(logKey) }
  let pinned = pinnedKeys.get(logKey)
  if (pinned) return pinned
  const key = parseVerifierKey(logKey)
  if (!key) return undefined
  if (pinnedKeys.size >= PINNED_KEYS_CAPACITY) pinnedKeys.clear()
  pinnedKeys.set(logKey, (pinned = { key, identity: keyIdentity(key) }))
  return pinned
}

/**
 * Verifies a signed checkpoint against a pinned log key (a verifier key string or parsed key) and
 * parses it. The origin must be the key's name. A note that verified before against the same key
 * with the same implementation is not verified again (verified-checkpoints.ts).
 */
export function openCheckpoint(note: string, logKey: string | NoteVerifierKey, verifyEd25519: Ed25519Verify = nobleEd25519Verify): OpenedCheckpoint {
  const pinned = pinnedKey(logKey)
  if (!pinned) return { ok: false, error: 'The log key is not a valid Ed25519 verifier key' }
  const { key, identity } = pinned
  const remembered = rememberedCheckpoint(note, identity, verifyEd25519)
  if (remembered) return { ok: true, checkpoint: remembered }
  const opened = openNote(note, key, verifyEd25519)
  if (!opened.ok) return opened
  const checkpoint = parseCheckpointText(opened.text)
  if (!checkpoint) return { ok: false, error: 'The checkpoint is malformed' }
  if (checkpoint.origin !== key.name) return { ok: false, error: `The checkpoint is for ${checkpoint.origin}, not ${key.name}` }
  rememberCheckpoint(note, identity, verifyEd25519, checkpoint)
  return { ok: true, checkpoint }
}
