/** The native Ed25519 check gives the verdicts @noble gives on what the verifier meets: good, altered and foreign signatures. */
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { nobleEd25519Verify } from '../tlog/signed-note.js'
import { nodeEd25519Verify } from './node-ed25519.js'

describe('nodeEd25519Verify', () => {
  const secret = new Uint8Array(32).fill(7)
  const publicKey = ed25519.getPublicKey(secret)
  const message = new TextEncoder().encode('cairn.example/log\n3\nroot\n')
  const signature = ed25519.sign(message, secret)

  it('agrees with @noble', () => {
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
    expect(cases.map((args) => nodeEd25519Verify(...args))).toEqual(cases.map((args) => (args[2].length === 32 && args[0].length === 64 ? nobleEd25519Verify(...args) : false)))
    expect(nodeEd25519Verify(signature, message, publicKey)).toBe(true)
  })

  it('never answers for one key with another key imported before, whatever the order', () => {
    const keys = [7, 8, 9].map((fill) => new Uint8Array(32).fill(fill))
    const signatures = keys.map((secret) => ed25519.sign(message, secret))
    const publics = keys.map((secret) => ed25519.getPublicKey(secret))
    for (let round = 0; round < 2; round++) {
      for (let signer = 0; signer < 3; signer++) {
        for (let key = 0; key < 3; key++) expect(nodeEd25519Verify(signatures[signer]!, message, publics[key]!)).toBe(signer === key)
      }
    }
    // The same key bytes at an offset in a larger array, and a key changed in place after use.
    const framed = new Uint8Array(40)
    framed.set(publics[1]!, 5)
    expect(nodeEd25519Verify(signatures[1]!, message, framed.subarray(5, 37))).toBe(true)
    expect(nodeEd25519Verify(signatures[0]!, message, framed.subarray(5, 37))).toBe(false)
    framed.set(publics[2]!, 5)
    expect(nodeEd25519Verify(signatures[1]!, message, framed.subarray(5, 37))).toBe(false)
    expect(nodeEd25519Verify(signatures[2]!, message, framed.subarray(5, 37))).toBe(true)
  })
})
