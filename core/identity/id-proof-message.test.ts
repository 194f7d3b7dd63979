import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { calculateJwkThumbprint } from 'jose'
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { idProofMessageBytes, ID_PROOF_PURPOSE } from './id-proof-message.js'
import { jwkThumbprint } from './public-key.js'
import { rawPublicKeyOf, signIdContinueRequest } from './sign-id-proof.js'
import { verifyIdProof } from './verify-id-proof.js'
import { sha256Hex } from '../digest/sha256.js'

/** RFC 8032 §7.1 test 1 key (also RFC 8037 Appendix A). */
const ED25519_EXAMPLE_KEY = createPrivateKey({
  key: { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
  format: 'jwk',
})
/** RFC 7515 Appendix A.3 key. */
const P256_EXAMPLE_KEY = createPrivateKey({
  key: { kty: 'EC', crv: 'P-256', d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' },
  format: 'jwk',
})

const AUDIENCE = 'https://cairn.example'
const CREATED_AT = '2026-06-25T00:00:00.000Z'
const CHALLENGE = new Uint8Array(16).map((_, i) => i)

// The worked example of docs/identity.md: change one, change both.
const ED25519_EXAMPLE = {
  keyId: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
  alg: 'EdDSA',
  publicKeyRawB64u: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  localUid: 'device-1',
  username: 'Ada',
  displayName: 'Ada Lovelace',
  createdAt: CREATED_AT,
  challengeB64Url: 'AAECAwQFBgcICQoLDA0ODw',
  signatureB64Url: 'OtKzgpgagQCkkoWUarojlwlK4bEw50OtA-12ZlZnLboWS7dr_3xTRW8l4LGgXHI2OdP5Hu6KSOQTZKSSBdIBBw',
} as const
const ED25519_MESSAGE =
  '{"alg":"EdDSA","audience":"https://cairn.example","challengeB64Url":"AAECAwQFBgcICQoLDA0ODw","createdAt":"2026-06-25T00:00:00.000Z",' +
  '"displayName":"Ada Lovelace","keyId":"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k","localUid":"device-1",' +
  '"publicKeyRawB64u":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","purpose":"cairn.id.continue.v1","username":"Ada"}'

const ES256_EXAMPLE = {
  ...ED25519_EXAMPLE,
  keyId: 'oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U',
  alg: 'ES256',
  publicKeyRawB64u: 'BH_Nzidw9sRdQYPL7m_bS3tYBzM1e-nvE7rPbjx70VRFx_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  signatureB64Url: 'T0TZ8QlwDxAz6WrJPb5OoK6RiB0zZ_ySXpwyM7_NCGinUBejQwkR-2khKBudinI3JmILYBmAZLm8u8riyj2RNw',
} as const

describe('the signed ID proof message (golden vectors)', () => {
  it('is the RFC 8785 canonical JSON of the request members, purpose and audience', () => {
    const { signatureB64Url: _, ...fields } = ED25519_EXAMPLE
    const text = new TextDecoder().decode(idProofMessageBytes(fields, AUDIENCE))
    expect(text).toBe(ED25519_MESSAGE)
    expect(sha256Hex(text)).toBe('b03512ef357a284a7193a94f8ee150b3f76f4b770984ea46b037c297d1104e85')
    expect(JSON.parse(text).purpose).toBe(ID_PROOF_PURPOSE)
  })

  it('signs optional members only when they are sent, and exactly as sent', () => {
    const { signatureB64Url: _, ...fields } = ED25519_EXAMPLE
    const text = new TextDecoder().decode(idProofMessageBytes({ ...fields, email: 'ada@example.com', origin: 'artifact-restored' }, AUDIENCE))
    expect(text).toContain('"email":"ada@example.com"')
    expect(text).toContain('"origin":"artifact-restored"')
    expect(text).not.toContain('artifactSha256')
  })

  it('reproduces the Ed25519 example signature exactly (Ed25519 is deterministic)', () => {
    const body = signIdContinueRequest({ username: 'Ada', displayName: 'Ada Lovelace', localUid: 'device-1' }, {
      privateKey: ED25519_EXAMPLE_KEY, challenge: CHALLENGE, createdAt: CREATED_AT, audience: AUDIENCE,
    })
    expect(body).toEqual(ED25519_EXAMPLE)
  })

  it('verifies both worked examples', () => {
    const now = Date.parse(CREATED_AT)
    for (const example of [ED25519_EXAMPLE, ES256_EXAMPLE]) {
      const verified = verifyIdProof(example, { now, audience: AUDIENCE })
      expect(E.isRight(verified) && verified.right).toMatchObject({ keyId: example.keyId, alg: example.alg, username: 'ada' })
    }
  })

  it('refuses the example at another audience (another deployment)', () => {
    const verified = verifyIdProof(ED25519_EXAMPLE, { now: Date.parse(CREATED_AT), audience: 'https://other.example' })
    expect(E.isLeft(verified) && verified.left._tag).toBe('Unauthenticated')
  })
})

describe('keyId is the RFC 7638 thumbprint', () => {
  it('matches RFC 8037 Appendix A.3 and jose for both key types', async () => {
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
    for (const { privateKey } of [generateKeyPairSync('ed25519'), generateKeyPairSync('ec', { namedCurve: 'P-256' })]) {
      const { jwk } = rawPublicKeyOf(privateKey)
      expect(jwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk, 'sha256'))
    }
    expect(jwkThumbprint(rawPublicKeyOf(P256_EXAMPLE_KEY).jwk)).toBe(ES256_EXAMPLE.keyId)
  })
})
