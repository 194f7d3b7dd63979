/**
 * Golden vectors from Go's golang.org/x/mod/sumdb/note (the PeterNeumann key and note): Ed25519
 * is deterministic, so signing must reproduce the published note byte for byte. Tile paths follow
 * the C2SP tlog-tiles examples.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { checkpointText, openCheckpoint, parseCheckpointText } from './checkpoint.js'
import { EMPTY_TREE_HASH } from './merkle.js'
import { openNote, parseVerifierKey, signNote, verifierKeyText, type NoteSigner } from './signed-note.js'
import { decodeEntryBundle, encodeEntryBundle, encodeTileIndex, parseTilePath, tilePath, tileWidthAt } from './tile-paths.js'

const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'
const SEED = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1)
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
const NOTE = `${TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`

const signerFor = (name: string, seed: Uint8Array): NoteSigner => ({
  name,
  publicKey: ed25519.getPublicKey(seed),
  sign: async (message) => ed25519.sign(message, seed),
})

describe('C2SP signed notes (Go sumdb/note vectors)', () => {
  it('derives the key ID and verifier key of the reference key', () => {
    expect(verifierKeyText('PeterNeumann', ed25519.getPublicKey(SEED))).toBe(VKEY)
    expect(parseVerifierKey(VKEY)?.name).toBe('PeterNeumann')
  })

  it('signs the reference note byte for byte and opens it', async () => {
    expect(await signNote(TEXT, signerFor('PeterNeumann', SEED))).toBe(NOTE)
    expect(openNote(NOTE, parseVerifierKey(VKEY)!)).toEqual({ ok: true, text: TEXT })
  })

  it('rejects a changed text, a wrong key, a malformed key and a note without a signature block', () => {
    const key = parseVerifierKey(VKEY)!
    expect(openNote(NOTE.replace('cryptography', 'cryptographY'), key).ok).toBe(false)
    const other = parseVerifierKey(verifierKeyText('PeterNeumann', ed25519.getPublicKey(new Uint8Array(32).fill(7))))!
    expect(openNote(NOTE, other)).toMatchObject({ ok: false, error: expect.stringContaining('no signature') })
    expect(parseVerifierKey(VKEY.replace('c74f20a3', 'c74f20a4'))).toBeUndefined()
    expect(parseVerifierKey('Peter+Neumann+c74f20a3+ARpc')).toBeUndefined()
    expect(openNote(TEXT, key).ok).toBe(false)
  })

  it('ignores signatures by other keys (witness cosignatures) beside the log key', async () => {
    const witness = signerFor('witness.example', new Uint8Array(32).fill(3))
    const cosigned = `${NOTE}${(await signNote(TEXT, witness)).slice(TEXT.length + 1)}`
    expect(openNote(cosigned, parseVerifierKey(VKEY)!)).toEqual({ ok: true, text: TEXT })
  })
})

describe('C2SP checkpoints', () => {
  const signer = signerFor('cairn.example/log', new Uint8Array(32).fill(1))
  const vkey = verifierKeyText(signer.name, signer.publicKey)

  it('formats, signs, opens and parses a checkpoint', async () => {
    const text = checkpointText({ origin: 'cairn.example/log', size: 0, rootHash: EMPTY_TREE_HASH })
    expect(text).toBe('cairn.example/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n')
    const note = await signNote(text, signer)
    expect(openCheckpoint(note, vkey)).toEqual({ ok: true, checkpoint: { origin: 'cairn.example/log', size: 0, rootHash: EMPTY_TREE_HASH } })
  })

  it('refuses a checkpoint for another origin, a bad size or a short root', async () => {
    const foreign = await signNote(checkpointText({ origin: 'cairn.example/log', size: 1, rootHash: EMPTY_TREE_HASH }).replace('cairn.example/log', 'other.example/log'), signer)
    expect(openCheckpoint(foreign, vkey)).toMatchObject({ ok: false, error: expect.stringContaining('other.example/log') })
    expect(parseCheckpointText('o\n01\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n')).toBeUndefined()
    expect(parseCheckpointText('o\n1\nAAAA\n')).toBeUndefined()
    expect(openCheckpoint('x', 'not a key')).toMatchObject({ ok: false })
  })
})

describe('C2SP tlog-tiles paths', () => {
  it('encodes tile indexes in 3-digit elements', () => {
    expect(encodeTileIndex(0)).toBe('000')
    expect(encodeTileIndex(1234067)).toBe('x001/x234/067')
    expect(encodeTileIndex(1000)).toBe('x001/000')
    expect(tilePath({ kind: 'hashes', level: 0, index: 1234067, width: 256 })).toBe('tile/0/x001/x234/067')
    expect(tilePath({ kind: 'entries', index: 5, width: 7 })).toBe('tile/entries/005.p/7')
  })

  it('parses canonical paths and refuses the rest', () => {
    expect(parseTilePath('0/x001/x234/067')).toEqual({ kind: 'hashes', level: 0, index: 1234067, width: 256 })
    expect(parseTilePath('2/000.p/1')).toEqual({ kind: 'hashes', level: 2, index: 0, width: 1 })
    expect(parseTilePath('entries/x001/000.p/255')).toEqual({ kind: 'entries', index: 1000, width: 255 })
    for (const bad of ['00/000', '0/0', '0/000.p/0', '0/000.p/256', '0/000.p/07', '64/000', '0/x000/001', '0/001/002', 'foo/000']) {
      expect(parseTilePath(bad), bad).toBeUndefined()
    }
  })

  it('sizes tiles as the spec example does (70,000 leaves)', () => {
    expect(tileWidthAt(0, 272, 70_000)).toBe(256)
    expect(tileWidthAt(0, 273, 70_000)).toBe(112)
    expect(tileWidthAt(1, 1, 70_000)).toBe(17)
    expect(tileWidthAt(2, 0, 70_000)).toBe(1)
    expect(tileWidthAt(0, 274, 70_000)).toBe(0)
  })

  it('refuses, never throws on, a signature of the wrong length by the pinned key', () => {
    const key = parseVerifierKey(VKEY)!
    const blob = Buffer.from(NOTE.split(' ').at(-1)!.trim(), 'base64')
    for (const length of [blob.length - 1, blob.length + 1]) {
      const changed = Buffer.alloc(length)
      blob.copy(changed, 0, 0, Math.min(length, blob.length))
      const note = `${TEXT}\n— PeterNeumann ${changed.toString('base64')}\n`
      expect(openNote(note, key)).toEqual({ ok: false, error: 'The signature by PeterNeumann does not verify' })
    }
  })

  it('round-trips entry bundles and refuses truncated ones', () => {
    const entries = [new Uint8Array([0x61]), new Uint8Array(), new Uint8Array(300).fill(9)]
    const bundle = encodeEntryBundle(entries)
    expect(Buffer.from(bundle.subarray(0, 5)).toString('hex')).toBe('0001610000')
    expect(decodeEntryBundle(bundle)).toEqual(entries)
    expect(decodeEntryBundle(bundle.subarray(0, bundle.length - 1))).toBeUndefined()
    expect(() => encodeEntryBundle([new Uint8Array(65_536)])).toThrow(RangeError)
  })
})
