/**
 * The golden runtime envelope (golden/envelope-es256.json): the exact bytes docs/runtime.md
 * describes. The digests are recomputed by the server's own functions, the signature is checked with
 * WebCrypto directly over the documented signed bytes, and the client verifier accepts it at its
 * pinned time.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../digest/canonical-json.js'
import { sha256OfJson } from '../digest/sha256.js'
import { genesisRevocationHead } from './revocation-head.js'
import { receiptDigestOf, requestDigestOf } from './signed-envelope.js'
import { verifyRuntimeEnvelope } from './verify-envelope.js'

const vector = JSON.parse(readFileSync(new URL('./golden/envelope-es256.json', import.meta.url), 'utf8'))
const { envelope, expected, sent } = vector

describe('golden runtime envelope (ES256)', () => {
  it('has the documented request, wire and receipt digests and genesis revocation head', () => {
    expect(canonicalJson({ method: sent.method, path: sent.path, body: sent.body })).toBe(expected.requestCanonicalJson)
    expect(requestDigestOf(sent.method, sent.path, sent.body)).toBe(expected.requestDigest)
    expect(sha256OfJson(envelope.wire)).toBe(expected.wireDigest)
    const { receiptDigest, ...unsigned } = envelope.receipt
    expect(receiptDigestOf(unsigned)).toBe(receiptDigest)
    expect(receiptDigest).toBe(expected.receiptDigest)
    expect(genesisRevocationHead(sent.applicationId)).toBe(expected.genesisRevocationHead)
    expect(canonicalJson(envelope.transportBinding)).toBe(expected.signedBytes)
  })

  it('carries a plain ES256 (raw r||s) signature over the signed bytes, checked with WebCrypto directly', async () => {
    const key = await crypto.subtle.importKey('jwk', vector.jwks.keys[0], { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
    const signature = Buffer.from(envelope.transportSignature.sig, 'base64url')
    expect(signature).toHaveLength(64)
    const holds = (bytes: string) => crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, new TextEncoder().encode(bytes))
    expect(await holds(expected.signedBytes)).toBe(true)
    expect(await holds(expected.signedBytes.replace('"POST"', '"GET"'))).toBe(false)
  })

  it('is accepted by the client verifier at its pinned time, and refused a day later', async () => {
    expect((await verifyRuntimeEnvelope(envelope, sent, { jwks: vector.jwks, now: vector.nowMs })).ok).toBe(true)
    const later = await verifyRuntimeEnvelope(envelope, sent, { jwks: vector.jwks, now: vector.nowMs + 86_400_000 })
    expect(later).toEqual({ ok: false, errors: ['the answer has expired'] })
  })
})
