/**
 * Capability chains signed by WebCrypto ID keys: each link names its parent's digest and its
 * depth, each signature verifies over the RFC 8785 bytes the server checks, and a link that states
 * its own parent keeps it.
 */
import { describe, expect, it } from 'vitest'
import { fromBase64Url } from '../core/proof/bytes.js'
import { capabilityDigestOf, capabilitySigningBytes } from '../core/runtime/capability-bytes.js'
import { loadOrCreateIdKey, signCapabilityChain, type LinkPayload } from './index.js'

const root = {
  schema: 'cairn.v124.capability_payload', applicationId: 'com.example.notes', issuerSubjectId: 'usr_ada', issuerKeyId: 'k-ada', actorId: 'usr_bob',
} as unknown as LinkPayload

describe('capability chains from the client', () => {
  it('chains parent digests and depths, and signs each link with its issuer key', async () => {
    const [ada, bob] = [await loadOrCreateIdKey(), await loadOrCreateIdKey()]
    const chain = await signCapabilityChain([{ signer: ada, payload: root }, { signer: bob, payload: { ...root, issuerKeyId: 'k-bob', actorId: 'usr_grace' } }])
    expect(chain.map((link) => [link.payload.delegationDepth, link.payload.parentDigest])).toEqual([[0, null], [1, capabilityDigestOf(chain[0]!.payload)]])
    for (const [index, key] of [ada, bob].entries()) {
      const publicKey = await crypto.subtle.importKey('raw', fromBase64Url(key.publicKeyRawB64u)! as Uint8Array<ArrayBuffer>, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
      const link = chain[index]!
      expect(link.alg).toBe('ES256')
      expect(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, fromBase64Url(link.signatureB64u)! as Uint8Array<ArrayBuffer>, capabilitySigningBytes(link.payload) as Uint8Array<ArrayBuffer>)).toBe(true)
    }
  })

  it('keeps a parent digest or depth a link states itself', async () => {
    const key = await loadOrCreateIdKey()
    const stated = { algorithm: 'sha-256', binds: 'verified-capability', value: 'a'.repeat(64) } as const
    const [link] = await signCapabilityChain([{ signer: key, payload: { ...root, parentDigest: stated, delegationDepth: 3 } }])
    expect(link!.payload).toMatchObject({ parentDigest: stated, delegationDepth: 3 })
  })
})
