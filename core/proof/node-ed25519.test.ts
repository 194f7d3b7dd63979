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
})
