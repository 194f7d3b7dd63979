/**
 * The KeyStore conformance suite: signatures are JWS signatures that jose verifies against the
 * published JWKS (EdDSA, ES256 and RS256, for token and proof keys alike), kids are RFC 7638
 * thumbprints, each purpose has its own keys and key set, rotation keeps retired keys verifiable,
 * and nothing private is ever published or reachable from a SigningKey.
 */
import { KeyObject } from 'node:crypto'
import { calculateJwkThumbprint, compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose'
import { describe, expect, it } from 'vitest'
import { KEY_PURPOSES, type SigningAlgorithm, type SigningKey } from '../ports/key-store.js'
import { eachTest } from './support/each-test.js'
import type { KeyStoreConformanceOptions, KeyStoreFixture } from './targets.js'

const ALGORITHMS: readonly SigningAlgorithm[] = ['EdDSA', 'ES256', 'RS256']
/** JWS signature length (RFC 7518 §3.3/§3.4, RFC 8037): RS256 keys are RSA-2048 or longer. */
const SIGNATURE_BYTES: Record<SigningAlgorithm, (n: number) => boolean> = { EdDSA: (n) => n === 64, ES256: (n) => n === 64, RS256: (n) => n >= 256 }
/** JWK members that hold private key material (RFC 7518 §6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']

/**
 * @example
 * describeKeyStoreConformance({ name: 'keys=memory', create: async () => new MemoryKeyStore() })
 */
export function describeKeyStoreConformance(options: KeyStoreConformanceOptions): void {
  describe(`${options.name} KeyStore`, () => {
    const fixture = eachTest(
      async (): Promise<KeyStoreFixture> => {
        const made = await options.create()
        return 'jwks' in made ? { keys: made } : made
      },
      async (opened) => {
        await opened.destroy?.()
      },
    )

    for (const purpose of KEY_PURPOSES)
    for (const alg of ALGORITHMS) {
      describe(`${alg} ${purpose} keys`, () => {
        it('signs JWS that jose verifies against the published JWKS', async () => {
          const { keys } = fixture()
          const key = await keys.current(alg, purpose)
          expect(key).toMatchObject({ alg, purpose, publicJwk: { alg, use: 'sig', kid: key.kid } })
          const jws = await signCompact(key, { hello: 'cairn' })
          expect(SIGNATURE_BYTES[alg]((await key.sign(new Uint8Array([1, 2, 3]))).byteLength)).toBe(true)
          const verified = await compactVerify(jws, createLocalJWKSet((await keys.jwks(purpose)) as JSONWebKeySet), { algorithms: [alg] })
          expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual({ hello: 'cairn' })
          expect(verified.protectedHeader.kid).toBe(key.kid)
        })

        it('names keys by their RFC 7638 thumbprint and keeps one current key', async () => {
          const { keys } = fixture()
          const [a, b] = await Promise.all([keys.current(alg, purpose), keys.current(alg, purpose)])
          expect(a.kid).toBe(b!.kid)
          expect(a.kid).toBe(await calculateJwkThumbprint(a.publicJwk as Parameters<typeof calculateJwkThumbprint>[0], 'sha256'))
          expect((await keys.jwks(purpose)).keys.filter((jwk) => jwk.alg === alg)).toHaveLength(1)
        })

        it('rotates to a new key and keeps the retired one verifiable', async () => {
          const { keys } = fixture()
          const retired = await keys.current(alg, purpose)
          const oldJws = await signCompact(retired, { signed: 'before rotation' })
          const rotated = await keys.rotate(alg, purpose)
          expect(rotated.kid).not.toBe(retired.kid)
          expect((await keys.current(alg, purpose)).kid).toBe(rotated.kid)
          const jwks = createLocalJWKSet((await keys.jwks(purpose)) as JSONWebKeySet)
          await expect(compactVerify(oldJws, jwks)).resolves.toMatchObject({ protectedHeader: { kid: retired.kid } })
          await expect(compactVerify(await signCompact(rotated, { signed: 'after' }), jwks)).resolves.toMatchObject({ protectedHeader: { kid: rotated.kid } })
          expect((await keys.jwks(purpose)).keys.map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([retired.kid, rotated.kid]))
        })
      })
    }

    it('keeps token and proof keys apart: own current key, own key set, token keys by default', async () => {
      const { keys } = fixture()
      const token = await keys.current('EdDSA')
      const proof = await keys.current('EdDSA', 'proof')
      expect(token.purpose).toBe('token')
      expect(proof.purpose).toBe('proof')
      expect(proof.kid).not.toBe(token.kid)
      expect((await keys.current('EdDSA', 'token')).kid).toBe(token.kid)
      expect(kidsOf(await keys.jwks())).toEqual([token.kid])
      expect(kidsOf(await keys.jwks('token'))).toEqual([token.kid])
      expect(kidsOf(await keys.jwks('proof'))).toEqual([proof.kid])
      const rotated = await keys.rotate('EdDSA', 'proof')
      expect((await keys.current('EdDSA')).kid).toBe(token.kid)
      expect(kidsOf(await keys.jwks('proof'))).toEqual([rotated.kid, proof.kid])
      expect(kidsOf(await keys.jwks('token'))).toEqual([token.kid])
    })

    it('publishes no private key material and keeps it out of SigningKey values', async () => {
      const { keys } = fixture()
      const signingKeys = [await keys.current('EdDSA'), await keys.current('ES256'), await keys.current('RS256'), await keys.rotate('EdDSA'), await keys.current('RS256', 'proof')]
      for (const jwk of [...(await keys.jwks()).keys, ...(await keys.jwks('proof')).keys]) {
        for (const member of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(member)
      }
      for (const key of signingKeys) {
        for (const member of Object.values(key)) expect(member).not.toBeInstanceOf(KeyObject)
        expect(JSON.stringify(key)).not.toMatch(/"d"|"p"|"q"|PRIVATE/)
        for (const member of PRIVATE_MEMBERS) expect(key.publicJwk).not.toHaveProperty(member)
      }
    })

    it('shares its keys with another opening of the same storage: one current key, rotations published at once', async (context) => {
      const { keys, reopen } = fixture()
      if (reopen === undefined) return context.skip('the fixture cannot open its key store twice (keys live in memory)')
      const other = await reopen()
      const [mine, theirs] = await Promise.all([keys.current('ES256'), other.current('ES256')])
      expect(mine.kid).toBe(theirs.kid)
      const rotated = await other.rotate('ES256')
      // A verifier meeting the new kid reloads the JWKS: it must be there at once, beside the retired key.
      expect((await keys.jwks()).keys.map((jwk) => jwk.kid)).toEqual([rotated.kid, mine.kid])
      const proof = await keys.current('EdDSA', 'proof')
      expect((await other.jwks('proof')).keys.map((jwk) => jwk.kid)).toEqual([proof.kid])
    })

    it('keeps its keys when opened again', async (context) => {
      const { keys, reopen } = fixture()
      if (reopen === undefined) return context.skip('the fixture cannot reopen its key store (keys live in memory)')
      const ed = await keys.current('EdDSA')
      await keys.rotate('EdDSA')
      const es = await keys.current('ES256')
      const proof = await keys.current('RS256', 'proof')
      const jws = await signCompact(ed, { before: 'restart' })
      const again = await reopen()
      expect((await again.jwks()).keys).toEqual((await keys.jwks()).keys)
      expect((await again.jwks('proof')).keys).toEqual([proof.publicJwk])
      expect((await again.current('RS256', 'proof')).kid).toBe(proof.kid)
      expect((await again.current('ES256')).kid).toBe(es.kid)
      await expect(compactVerify(jws, createLocalJWKSet((await again.jwks()) as JSONWebKeySet))).resolves.toBeDefined()
      const signedAfter = await signCompact(await again.current('ES256'), { after: 'restart' })
      await expect(compactVerify(signedAfter, createLocalJWKSet((await keys.jwks()) as JSONWebKeySet))).resolves.toBeDefined()
    })
  })
}

function kidsOf(jwks: { readonly keys: readonly { readonly kid: string }[] }): string[] {
  return jwks.keys.map((jwk) => jwk.kid)
}

/** A compact JWS over `payload` made with the port's `sign` alone (no jose signing involved). */
async function signCompact(key: SigningKey, payload: unknown): Promise<string> {
  const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
  const header = encode(new TextEncoder().encode(JSON.stringify({ alg: key.alg, kid: key.kid })))
  const body = encode(new TextEncoder().encode(JSON.stringify(payload)))
  const signature = await key.sign(new TextEncoder().encode(`${header}.${body}`))
  return `${header}.${body}.${encode(signature)}`
}

