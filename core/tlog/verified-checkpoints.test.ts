/** A remembered checkpoint is only ever a success for the same note, key and implementation. */
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { checkpointText, openCheckpoint } from './checkpoint.js'
import { EMPTY_TREE_HASH } from './merkle.js'
import { parseVerifierKey, signNote, verifierKeyText, type Ed25519Verify } from './signed-note.js'

describe('verified checkpoints', () => {
  it('skips a second check of the same note and key, never a different note, key or implementation, never a failure', async () => {
    const secret = new Uint8Array(32).fill(9)
    const publicKey = ed25519.getPublicKey(secret)
    const signer = { name: 'memo.example/log', publicKey, sign: async (message: Uint8Array) => ed25519.sign(message, secret) }
    const key = verifierKeyText(signer.name, publicKey)
    const note = await signNote(checkpointText({ origin: signer.name, size: 3, rootHash: EMPTY_TREE_HASH }), signer)
    let calls = 0
    const counting: Ed25519Verify = (signature, message, keyBytes) => (calls++, ed25519.verify(signature, message, keyBytes))
    expect(openCheckpoint(note, key, counting).ok).toBe(true)
    expect(openCheckpoint(note, key, counting).ok).toBe(true)
    expect(calls).toBe(1)
    // Another implementation checks for itself: a broken one is not vouched for by the first.
    expect(openCheckpoint(note, key, () => false).ok).toBe(false)
    expect(openCheckpoint(note, key, () => false).ok).toBe(false)
    // Another note of the same key, and the same note with one signature byte changed, are checked afresh.
    const other = await signNote(checkpointText({ origin: signer.name, size: 4, rootHash: EMPTY_TREE_HASH }), signer)
    expect(openCheckpoint(other, key, counting).ok).toBe(true)
    expect(calls).toBe(2)
    const tampered = note.replace(/ (\S)(\S*)\n$/u, (_, first: string, rest: string) => ` ${first === 'A' ? 'B' : 'A'}${rest}\n`)
    expect(openCheckpoint(tampered, key, counting).ok).toBe(false)
    // Another key under the same name does not open it.
    const otherKey = verifierKeyText(signer.name, ed25519.getPublicKey(new Uint8Array(32).fill(8)))
    expect(openCheckpoint(note, otherKey, counting).ok).toBe(false)
  })

  it('reuses a parsed key text only for that exact text, and checks a key object as it is at each call', async () => {
    const signer = (fill: number) => {
      const secret = new Uint8Array(32).fill(fill)
      return { name: 'pinned.example/log', publicKey: ed25519.getPublicKey(secret), sign: async (message: Uint8Array) => ed25519.sign(message, secret) }
    }
    const [first, second] = [signer(5), signer(6)]
    const note = await signNote(checkpointText({ origin: first.name, size: 7, rootHash: EMPTY_TREE_HASH }), first)
    const firstKey = verifierKeyText(first.name, first.publicKey)
    const secondKey = verifierKeyText(second.name, second.publicKey)
    expect(openCheckpoint(note, firstKey).ok).toBe(true)
    expect(openCheckpoint(note, secondKey)).toEqual({ ok: false, error: `The note carries no signature by ${secondKey.split('+').slice(0, 2).join('+')}` })
    expect(openCheckpoint(note, firstKey.slice(0, -2) + 'A=')).toEqual({ ok: false, error: 'The log key is not a valid Ed25519 verifier key' })
    expect(openCheckpoint(note, firstKey).ok).toBe(true)
    // A key object changed in place after a success is checked as it now is, not as it was.
    const key = parseVerifierKey(firstKey)!
    expect(openCheckpoint(note, key).ok).toBe(true)
    key.publicKey.set(second.publicKey)
    expect(openCheckpoint(note, key).ok).toBe(false)
  })

  it('forgets the oldest checkpoint past its capacity, and only that one, whichever key it was under', async () => {
    const signerOf = (fill: number, name: string) => {
      const secret = new Uint8Array(32).fill(fill)
      return { name, publicKey: ed25519.getPublicKey(secret), sign: async (message: Uint8Array) => ed25519.sign(message, secret) }
    }
    const [a, b] = [signerOf(4, 'capacity.example/a'), signerOf(3, 'capacity.example/b')]
    const [aKey, bKey] = [verifierKeyText(a.name, a.publicKey), verifierKeyText(b.name, b.publicKey)]
    const noteOf = (signer: typeof a, size: number) => signNote(checkpointText({ origin: signer.name, size, rootHash: EMPTY_TREE_HASH }), signer)
    const [firstB, laterB] = [await noteOf(b, 0), await noteOf(b, 1)]
    const aNotes = await Promise.all(Array.from({ length: 256 }, (_, size) => noteOf(a, size)))
    let calls = 0
    const counting: Ed25519Verify = (signature, message, keyBytes) => (calls++, ed25519.verify(signature, message, keyBytes))
    // B's only note is the oldest, then 255 of A's fill the memory (256).
    expect(openCheckpoint(firstB, bKey, counting).ok).toBe(true)
    for (const note of aNotes.slice(0, 255)) expect(openCheckpoint(note, aKey, counting).ok).toBe(true)
    expect(calls).toBe(256)
    // Another of B's pushes out B's first (its key's last note): the new one is still remembered.
    expect(openCheckpoint(laterB, bKey, counting).ok).toBe(true)
    expect(openCheckpoint(laterB, bKey, counting).ok).toBe(true)
    expect(calls).toBe(257)
    // The last of A's pushes out A's first; every other is still remembered, and A's first is checked again.
    expect(openCheckpoint(aNotes[255]!, aKey, counting).ok).toBe(true)
    for (const note of aNotes.slice(1)) expect(openCheckpoint(note, aKey, counting).ok).toBe(true)
    expect(openCheckpoint(laterB, bKey, counting).ok).toBe(true)
    expect(calls).toBe(258)
    expect(openCheckpoint(aNotes[0]!, aKey, counting)).toEqual({ ok: true, checkpoint: { origin: a.name, size: 0, rootHash: EMPTY_TREE_HASH } })
    expect(openCheckpoint(firstB, bKey, counting).ok).toBe(true)
    expect(calls).toBe(260)
  })
})
