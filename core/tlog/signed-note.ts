/**
 * C2SP signed-note with Ed25519 signatures (signature type 0x01): the text, a blank line, and
 * lines `— <key name> base64(key ID || signature)`. The key ID is the first four bytes of
 * SHA-256(key name || 0x0A || 0x01 || public key). Verifier keys are written as Go's sumdb/note
 * does: `<name>+<key ID as 8 hex digits>+base64(0x01 || public key)`.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from './sha256-bytes.js'
import { fromBase64, toBase64, toHex } from './base64.js'

const ED25519_TYPE = 0x01
const encoder = new TextEncoder()

export interface NoteVerifierKey {
  readonly name: string
  readonly keyId: Uint8Array
  /** 32-byte Ed25519 public key. */
  readonly publicKey: Uint8Array
}

/** Signs note text with an Ed25519 key whose private half may live elsewhere (a KeyStore). */
export interface NoteSigner {
  readonly name: string
  readonly publicKey: Uint8Array
  sign(message: Uint8Array): Promise<Uint8Array>
}

const base64 = toBase64
const hex = toHex

function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name)
}

export function ed25519KeyId(name: string, publicKey: Uint8Array): Uint8Array {
  // A pure function of its inputs, asked for by every checkpoint signed and every verifier key
  // written (a SHA-256 in JavaScript each): remembered, and handed out as a fresh copy.
  const memoKey = `${name}\n${hex(publicKey)}`
  let id = keyIds.get(memoKey)
  if (id === undefined) {
    id = computedKeyId(name, publicKey)
    if (keyIds.size >= 64) keyIds.clear()
    keyIds.set(memoKey, id)
  }
  return id.slice()
}

const keyIds = new Map<string, Uint8Array>()

function computedKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  const nameBytes = encoder.encode(name)
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length)
  input.set(nameBytes)
  input[nameBytes.length] = 0x0a
  input[nameBytes.length + 1] = ED25519_TYPE
  input.set(publicKey, nameBytes.length + 2)
  return sha256(input).slice(0, 4)
}

/** @example verifierKeyText('example.com/log', publicKey) // 'example.com/log+1a2b3c4d+AR…' */
export function verifierKeyText(name: string, publicKey: Uint8Array): string {
  const typed = new Uint8Array(1 + publicKey.length)
  typed[0] = ED25519_TYPE
  typed.set(publicKey, 1)
  return `${name}+${hex(ed25519KeyId(name, publicKey))}+${base64(typed)}`
}

/** Parses a verifier key; undefined when malformed, of another type, or its ID does not match its key. */
export function parseVerifierKey(text: string): NoteVerifierKey | undefined {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text.trim())
  if (!match) return undefined
  const [, name, idHex, keyText] = match as unknown as [string, string, string, string]
  const typed = fromBase64(keyText)
  if (!typed || typed.length !== 33 || typed[0] !== ED25519_TYPE || !validKeyName(name)) return undefined
  const publicKey = typed.slice(1)
  const keyId = ed25519KeyId(name, publicKey)
  return hex(keyId) === idHex ? { name, keyId, publicKey } : undefined
}

/** `text` (ending in a newline) signed by `signer`. */
export async function signNote(text: string, signer: NoteSigner): Promise<string> {
  if (!text.endsWith('\n')) throw new Error('Note text must end with a newline')
  if (!validKeyName(signer.name)) throw new Error(`Invalid note key name ${signer.name}`)
  const signature = await signer.sign(encoder.encode(text))
  const blob = new Uint8Array(4 + signature.length)
  blob.set(ed25519KeyId(signer.name, signer.publicKey))
  blob.set(signature, 4)
  return `${text}\n— ${signer.name} ${base64(blob)}\n`
}

/**
 * An Ed25519 signature check. Notes are checked with @noble/curves by default (pure, so the
 * browser verifier bundles it); Node callers pass node:crypto's (`nodeEd25519Verify`), which is
 * native and an order of magnitude faster.
 */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean

/** Never throws: @noble throws on a signature that is not 64 bytes, which a changed note can carry (found by the verifier's fuzz test). */
export const nobleEd25519Verify: Ed25519Verify = (signature, message, publicKey) => {
  try {
    return signature.length === 64 && ed25519.verify(signature, message, publicKey)
  } catch {
    return false
  }
}

export type OpenedNote = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string }

/**
 * The note's text when a signature by `key` verifies. Signatures by other keys are ignored (the
 * note may carry witness cosignatures); a failing signature by `key` rejects the note.
 */
export function openNote(note: string, key: NoteVerifierKey, verifyEd25519: Ed25519Verify = nobleEd25519Verify): OpenedNote {
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note)) return { ok: false, error: 'The note contains control characters' }
  const split = note.lastIndexOf('\n\n')
  if (split === -1 || !note.endsWith('\n')) return { ok: false, error: 'The note has no signature block' }
  const text = note.slice(0, split + 1)
  const lines = note.slice(split + 2, -1).split('\n')
  let verified = false
  for (const line of lines) {
    const match = /^— (\S+) (\S+)$/.exec(line)
    if (!match) return { ok: false, error: 'The note has a malformed signature line' }
    const blob = fromBase64(match[2]!)
    if (!blob || blob.length < 5) return { ok: false, error: 'The note has a malformed signature' }
    if (match[1] !== key.name || hex(blob.subarray(0, 4)) !== hex(key.keyId)) continue
    if (!verifyEd25519(blob.subarray(4), encoder.encode(text), key.publicKey)) return { ok: false, error: `The signature by ${key.name} does not verify` }
    verified = true
  }
  return verified ? { ok: true, text } : { ok: false, error: `The note carries no signature by ${key.name}+${hex(key.keyId)}` }
}
