/**
 * Checkpoints whose signature has verified, remembered by the exact signed note and the exact key
 * (name, key ID, public key), one memory per Ed25519 implementation. Verifying a note is a pure
 * function of those, so a remembered success is the answer a fresh check would give; failures are
 * never remembered. Why: every file sealed at one tree size carries the same checkpoint, and a
 * verifier that sees a file again (the /verify page, Connect verify) would check the same
 * signature again — the costliest step of a small file's verification after the statement's own.
 */
import type { Checkpoint } from './checkpoint.js'
import type { Ed25519Verify, NoteVerifierKey } from './signed-note.js'
import { toBase64, toHex } from './base64.js'

/** At most this many checkpoints per implementation (a few hundred bytes each). */
const CAPACITY = 256

/** Per implementation, per key identity, per note: a note is looked up as it is, never joined to its key into a new string to hash. */
type Memory = { size: number; readonly byKey: Map<string, Map<string, Checkpoint>>; readonly order: [string, string][] }

const byImplementation = new WeakMap<Ed25519Verify, Memory>()

/** The exact key a note verified under (name, key ID, public key), as checkpoints are remembered by it. */
export const keyIdentity = (key: NoteVerifierKey): string => `${key.name}+${toHex(key.keyId)}+${toBase64(key.publicKey)}`

export function rememberedCheckpoint(note: string, keyIdentity: string, verify: Ed25519Verify): Checkpoint | undefined {
  return byImplementation.get(verify)?.byKey.get(keyIdentity)?.get(note)
}

export function rememberCheckpoint(note: string, keyIdentity: string, verify: Ed25519Verify, checkpoint: Checkpoint): void {
  let memory = byImplementation.get(verify)
  if (!memory) byImplementation.set(verify, (memory = { size: 0, byKey: new Map(), order: [] }))
  if (memory.byKey.get(keyIdentity)?.has(note)) return
  // Room first: forgetting the oldest may drop this key's last note, and with it the key's map.
  if (memory.size >= CAPACITY) forgetOldest(memory)
  let notes = memory.byKey.get(keyIdentity)
  if (!notes) memory.byKey.set(keyIdentity, (notes = new Map()))
  notes.set(note, checkpoint)
  memory.order.push([keyIdentity, note])
  memory.size++
}

function forgetOldest(memory: Memory): void {
  const [identity, note] = memory.order.shift()!
  const notes = memory.byKey.get(identity)!
  notes.delete(note)
  if (notes.size === 0) memory.byKey.delete(identity)
  memory.size--
}
