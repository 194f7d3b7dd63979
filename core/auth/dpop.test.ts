/** DPoP proofs (RFC 9449 §4.3), rule by rule, against a pinned clock. */
import * as E from 'fp-ts/lib/Either.js'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { createOidcTestWorld, type OidcTestWorld } from '../../hosts/http/oidc-test-support.js'
import { currentDpopNonce, verifyDpopProof } from './dpop.js'

let world: OidcTestWorld
let key: CryptoKeyPair
let jwk: JWK
beforeEach(async () => {
  world = await createOidcTestWorld()
  key = (await generateKeyPair('ES256')) as CryptoKeyPair
  jwk = await exportJWK(key.publicKey)
})

const URL_ = 'https://cairn.test/api/oidc/token'
async function proof(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const now = Math.floor(world.clock.now() / 1000)
  return new SignJWT({ htm: 'POST', htu: URL_, iat: now, jti: `jti-${Math.random()}`, nonce: await currentDpopNonce(world.deps), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk, ...header }).sign(key.privateKey)
}
const verify = (text: string, method = 'POST', url = URL_) => verifyDpopProof(world.deps, { proof: text, method, url }, { at: 'token' })
const code = (result: E.Either<{ oauth?: { code: string } }, string>) => (E.isLeft(result) ? result.left.oauth?.code : 'ok')

describe('verifyDpopProof', () => {
  it('accepts a fresh proof once; the replay is refused', async () => {
    const once = await proof()
    expect(code(await verify(once))).toBe('ok')
    expect(code(await verify(once))).toBe('invalid_dpop_proof')
  })
  it('ignores the query of htu but not the method, path or origin', async () => {
    expect(code(await verify(await proof(), 'POST', `${URL_}?x=1`))).toBe('ok')
    expect(code(await verify(await proof(), 'GET'))).toBe('invalid_dpop_proof')
    expect(code(await verify(await proof({ htu: 'https://cairn.test/api/oidc/revoke' })))).toBe('invalid_dpop_proof')
    expect(code(await verify(await proof({ htu: 'https://evil.example/api/oidc/token' })))).toBe('invalid_dpop_proof')
  })
  it('refuses iat outside ±60 s, a missing jti, a wrong typ and a private key in the header', async () => {
    const now = Math.floor(world.clock.now() / 1000)
    expect(code(await verify(await proof({ iat: now - 61 })))).toBe('invalid_dpop_proof')
    expect(code(await verify(await proof({ iat: now + 61 })))).toBe('invalid_dpop_proof')
    expect(code(await verify(await proof({ jti: undefined })))).toBe('invalid_dpop_proof')
    expect(code(await verify(await proof({}, { typ: 'JWT' })))).toBe('invalid_dpop_proof')
    const privateJwk = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)
    expect(code(await verify(await proof({}, { jwk: privateJwk })))).toBe('invalid_dpop_proof')
  })
  it('asks for the server nonce (use_dpop_nonce with a fresh one) when it is missing or stale', async () => {
    const missing = await verify(await proof({ nonce: undefined }))
    expect(missing).toEqual(E.left(expect.objectContaining({ oauth: expect.objectContaining({ code: 'use_dpop_nonce' }), dpopNonce: await currentDpopNonce(world.deps) })))
    const old = await currentDpopNonce(world.deps)
    world.clock.advance(11 * 60 * 1000)
    expect(code(await verify(await proof({ nonce: old })))).toBe('use_dpop_nonce')
  })
})
