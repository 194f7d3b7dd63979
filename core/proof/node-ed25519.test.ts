/**
 * Both native Ed25519 checks (libsodium, node:crypto) give @noble's verdicts on what a verifier
 * meets — RFC 8032's vectors, good, altered and foreign signatures — agree with each other on any
 * key, message and tampering, and both refuse a small-order key, under which a "signature" made
 * by nobody verifies for every message.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Ed25519Verify } from '../tlog/signed-note.js'
import { nobleEd25519Verify } from '../tlog/signed-note.js'
import { libsodium } from './libsodium.js'
import { libsodiumEd25519Verify, nodeEd25519Verify, opensslEd25519Verify } from './node-ed25519.js'

const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'))

/** RFC 8032 §7.1, TEST 1–3: public key, message, signature. */
const RFC_8032 = [
  ['d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', '', 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b'],
  ['3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c', '72', '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00'],
  ['fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025', 'af82', '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a'],
].map(([publicKey, message, signature]) => ({ publicKey: hex(publicKey!), message: hex(message!), signature: hex(signature!) }))

const implementations: [string, Ed25519Verify | undefined][] = [['libsodium', libsodiumEd25519Verify], ['node:crypto', opensslEd25519Verify]]

it('uses libsodium wherever sodium-native is installed (an optional dependency npm installs by default)', () => {
  expect(nodeEd25519Verify).toBe(libsodium ? libsodiumEd25519Verify : opensslEd25519Verify)
})

describe.each(implementations)('%s', (name, check) => {
  // Said plainly rather than passed silently: without sodium-native only node:crypto is held to these.
  const verifyWith = check ?? (() => { throw new Error(`${name} is not installed here`) })
  const run = check ? it : it.skip

  const secret = new Uint8Array(32).fill(7)
  const publicKey = ed25519.getPublicKey(secret)
  const message = new TextEncoder().encode('cairn.example/log\n3\nroot\n')
  const signature = ed25519.sign(message, secret)

  run("verifies RFC 8032's test vectors and refuses each with a bit flipped", () => {
    for (const vector of RFC_8032) {
      expect(verifyWith(vector.signature, vector.message, vector.publicKey)).toBe(true)
      for (const bit of [0, 255, 260, 511]) {
        const altered = vector.signature.slice()
        altered[bit >> 3]! ^= 1 << (bit & 7)
        expect(verifyWith(altered, vector.message, vector.publicKey)).toBe(false)
      }
    }
  })

  run('agrees with @noble', () => {
    const altered = signature.slice()
    altered[10]! ^= 1
    const stranger = ed25519.getPublicKey(new Uint8Array(32).fill(8))
    const cases: [Uint8Array, Uint8Array, Uint8Array][] = [
      [signature, message, publicKey],
      [altered, message, publicKey],
      [signature, message.subarray(1), publicKey],
      [signature, message, stranger],
      [signature.subarray(0, 63), message, publicKey],
      [signature, message, new Uint8Array(31)],
    ]
    expect(cases.map((args) => verifyWith(...args))).toEqual(cases.map((args) => (args[2].length === 32 && args[0].length === 64 ? nobleEd25519Verify(...args) : false)))
    expect(verifyWith(signature, message, publicKey)).toBe(true)
  })

  run('refuses the identity key, under which R = identity and S = 0 would verify for any message', () => {
    const identity = new Uint8Array(32)
    identity[0] = 1
    const forged = new Uint8Array(64)
    forged.set(identity)
    for (const text of ['pay Mallory', 'anything at all']) expect(verifyWith(forged, new TextEncoder().encode(text), identity)).toBe(false)
  })

  run('never answers for one key with another key imported before, whatever the order', () => {
    const keys = [7, 8, 9].map((fill) => new Uint8Array(32).fill(fill))
    const signatures = keys.map((secret) => ed25519.sign(message, secret))
    const publics = keys.map((secret) => ed25519.getPublicKey(secret))
    for (let round = 0; round < 2; round++) {
      for (let signer = 0; signer < 3; signer++) {
        for (let key = 0; key < 3; key++) expect(verifyWith(signatures[signer]!, message, publics[key]!)).toBe(signer === key)
      }
    }
    // The same key bytes at an offset in a larger array, and a key changed in place after use.
    const framed = new Uint8Array(40)
    framed.set(publics[1]!, 5)
    expect(verifyWith(signatures[1]!, message, framed.subarray(5, 37))).toBe(true)
    expect(verifyWith(signatures[0]!, message, framed.subarray(5, 37))).toBe(false)
    framed.set(publics[2]!, 5)
    expect(verifyWith(signatures[1]!, message, framed.subarray(5, 37))).toBe(false)
    expect(verifyWith(signatures[2]!, message, framed.subarray(5, 37))).toBe(true)
  })
})

const both = libsodiumEd25519Verify ? it : it.skip
both('libsodium and node:crypto give the same verdict on any key, message and tampering with either', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.uint8Array({ maxLength: 300 }),
      fc.constantFrom('none', 'signature', 'message', 'key'),
      fc.nat(),
      (secret, message, tampered, at) => {
        const publicKey = ed25519.getPublicKey(secret)
        const signature = ed25519.sign(message, secret)
        const target = tampered === 'signature' ? signature : tampered === 'message' ? message : tampered === 'key' ? publicKey : undefined
        if (target && target.length > 0) target[at % target.length]! ^= 1 << (at % 8)
        const verdict = opensslEd25519Verify(signature, message, publicKey)
        expect(libsodiumEd25519Verify!(signature, message, publicKey)).toBe(verdict)
        if (tampered === 'none') expect(verdict).toBe(true)
      },
    ),
    { numRuns: 300 },
  )
})
