/**
 * The client verifier refuses every way an envelope can be forged or replayed, and accepts what the
 * server signs (`signEnvelope`) for exactly the request sent.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { createRuntimeTestWorld, APP, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { ENVELOPE_LIFETIME_MS, signEnvelope, type SignedEnvelope } from './signed-envelope.js'
import { verifyRuntimeEnvelope, type SentRequest } from './verify-envelope.js'
import { genesisRevocationHead } from './revocation-head.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const body = { applicationId: APP, operations: ['getJwks'] }
const sent: SentRequest = { method: 'POST', path: '/api/sdk/v1/runtime/qualify', body, applicationId: APP, audience: APP, domain: 'cairn.test' }

let runtime: RuntimeTestWorld
let envelope: SignedEnvelope<string, { answer: string }>
let jwks: { keys: JsonWebKey[] }

beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  envelope = await signEnvelope(runtime.deps, 'cairn.v124.signed_operational_capability_envelope', { answer: 'forty-two' }, {
    operationId: 'qualifyOperations', params: {}, body, applicationId: APP, audience: APP, revocationHead: genesisRevocationHead(APP),
  })
  jwks = await runtime.jwks()
})

const verify = (candidate: unknown, request: SentRequest = sent, now = T0) => verifyRuntimeEnvelope(candidate, request, { jwks, now })
const clone = <T>(value: T): T => structuredClone(value)

describe('verifyRuntimeEnvelope', () => {
  it('accepts an envelope for exactly the request sent, and hands back its wire', async () => {
    const verdict = await verify(envelope)
    expect(verdict).toEqual({ ok: true, wire: { answer: 'forty-two' }, receiptDigest: envelope.receipt.receiptDigest, expiresAtKaiUPulse: envelope.transportBinding.expiresAtKaiUPulse })
  })

  it('binds method, path, request digest, wire, receipt, application, audience, domain and Kai window', async () => {
    expect(envelope.transportBinding).toMatchObject({ method: 'POST', path: '/api/sdk/v1/runtime/qualify', applicationId: APP, audience: APP, domain: 'cairn.test', issuerRootKid: envelope.transportSignature.kid })
    expect(envelope.transportSignature).toMatchObject({ schema: 'cairn.v124.transport_signature', alg: 'ES256' })
    expect(envelope.receipt.revokedAtKaiUPulse).toBeNull()
  })

  const refusals: [string, () => Promise<unknown>, RegExp][] = [
    ['another path', () => verify(envelope, { ...sent, path: '/api/sdk/v1/execution/stage' }), /bound to POST \/api\/sdk\/v1\/runtime\/qualify/],
    ['another request body', () => verify(envelope, { ...sent, body: { ...body, operations: ['getJwks', 'stageExecution'] } }), /requestDigest/],
    ['another application', () => verify(envelope, { ...sent, applicationId: 'org.other.app' }), /another application/],
    ['another audience', () => verify(envelope, { ...sent, audience: 'org.other.app' }), /another audience/],
    ['another deployment', () => verify(envelope, { ...sent, domain: 'cairn.other' }), /another deployment/],
    ['a pinned revocation head that moved', () => verify(envelope, { ...sent, revocationHead: 'a'.repeat(64) }), /revocation head/],
    ['an expired answer', () => verify(envelope, sent, T0 + ENVELOPE_LIFETIME_MS + 31_000), /expired/],
    ['an answer from the future', () => verify(envelope, sent, T0 - 60_000), /future/],
    ['an altered wire', () => { const forged = clone(envelope); forged.wire.answer = 'forty-three'; return verify(forged) }, /wireDigest/],
    ['an altered receipt', () => { const forged = clone(envelope) as { receipt: { audience: string } }; forged.receipt.audience = 'org.other.app'; return verify(forged) }, /receipt/],
    ['an altered binding', () => { const forged = clone(envelope) as { transportBinding: { expiresAtKaiUPulse: number } }; forged.transportBinding.expiresAtKaiUPulse += 10 ** 9; return verify(forged) }, /does not verify/],
    ['an unknown key', () => { const forged = clone(envelope) as { transportSignature: { kid: string } }; forged.transportSignature.kid = 'unknown'; return verify(forged) }, /unknown kid/],
    ['a signature that is not base64url', () => { const forged = clone(envelope) as { transportSignature: { sig: string } }; forged.transportSignature.sig = '***'; return verify(forged) }, /base64url/],
    ['a downgraded algorithm', () => { const forged = clone(envelope) as { transportSignature: { alg: string } }; forged.transportSignature.alg = 'none'; return verify(forged) }, /algorithm/],
    ['something that is no envelope', () => verify({ wire: {} }), /not a signed runtime envelope/],
  ]
  it.each(refusals)('refuses %s', async (_name, run, reason) => {
    const verdict = (await run()) as { ok: boolean; errors: string[] }
    expect(verdict.ok).toBe(false)
    expect(verdict.errors.join('; ')).toMatch(reason)
  })

  it('refuses an envelope signed by another deployment\'s key, even for the same request', async () => {
    const other = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
    const foreign = await signEnvelope(other.deps, envelope.schema, envelope.wire, {
      operationId: 'qualifyOperations', params: {}, body, applicationId: APP, audience: APP, revocationHead: genesisRevocationHead(APP),
    })
    const verdict = await verify(foreign)
    expect(verdict).toEqual({ ok: false, errors: [expect.stringMatching(/unknown kid/)] })
  })
})
