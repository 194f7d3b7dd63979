/**
 * `npm run bench:runtime`: the cost of signed runtime envelopes next to the bare cryptography they
 * contain, measured in the same run with the same algorithm (ES256, WebCrypto/node:crypto):
 *
 * - `signEnvelope` (receipt, binding, three digests, Kai times, KeyStore signature) vs a bare
 *   ECDSA P-256 signature over the same canonical binding bytes;
 * - `verifyRuntimeEnvelope` (key import, signature, wire/receipt/request digests, binding checks,
 *   Kai window) vs a bare ECDSA verify of the same bytes with an imported key.
 *
 * Sequential awaits on one core, memory adapters. Target: ≤ 1.3× the bare cost (time per call).
 * Figures: bench/README.md.
 */
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto'
import { FixedClock, MemoryBlobStore, MemoryEventBus, MemoryKeyStore, MemoryStore, SeededEntropy } from '../adapters/memory/index.js'
import { canonicalJsonBytes } from '../core/digest/canonical-json.js'
import { genesisRevocationHead } from '../core/runtime/revocation-head.js'
import { signEnvelope } from '../core/runtime/signed-envelope.js'
import { verifyRuntimeEnvelope } from '../core/runtime/verify-envelope.js'
import type { CoreDeps } from '../core/usecases/use-case.js'
import { perSecond, printRates } from './per-second.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const APP = 'com.example.bench'
const now = Date.now()

const deps: CoreDeps = {
  clock: new FixedClock(now),
  entropy: new SeededEntropy('bench'),
  store: new MemoryStore(),
  blobs: new MemoryBlobStore(),
  events: new MemoryEventBus(),
  keys: new MemoryKeyStore(),
  config: { baseUrl: 'https://cairn.bench', deployment: {} },
}
const body = { applicationId: APP, operations: ['getJwks', 'qualifyOperations', 'stageExecution'] }
// A wire of the size a qualification report of three operations has.
const wire = { schema: 'cairn.v124.operational_capability_report_wire', applicationId: APP, results: body.operations.map((operation) => ({ operation, status: 'available', evidence: ['a'.repeat(64)] })) }
const binding = { operationId: 'qualifyOperations', params: {}, body, applicationId: APP, audience: APP, revocationHead: genesisRevocationHead(APP) } as const
const sign = () => signEnvelope(deps, 'cairn.v124.signed_operational_capability_envelope', wire, binding)

const envelope = await sign()
const jwks = { keys: [(await deps.keys.current('ES256')).publicJwk as JsonWebKey] }
const sent = { method: 'POST', path: '/api/sdk/v1/runtime/qualify', body, applicationId: APP, audience: APP, domain: 'cairn.bench' } as const

// Bare: the same curve and hash over the same signed bytes with node:crypto (the fastest signer here);
// the KeyStore's private half never leaves it, so the bare side signs with a fresh key of the same curve.
const signedBytes = canonicalJsonBytes(envelope.transportBinding) as Uint8Array<ArrayBuffer>
const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const publicJwk = pair.publicKey.export({ format: 'jwk' })
const bareSign = () => nodeSign('sha256', signedBytes, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' })
const bareSignature = bareSign()

const verified = await verifyRuntimeEnvelope(envelope, sent, { jwks, now })
if (!verified.ok) throw new Error(`the benchmark envelope does not verify: ${verified.errors.join('; ')}`)

const figures = {
  bareSign: await perSecond(async () => bareSign(), SECONDS),
  envelopeSign: await perSecond(sign, SECONDS),
  // A client verifies with a key it imports from the JWKS, so the bare side imports too.
  bareVerify: await perSecond(async () => {
    const key = await crypto.subtle.importKey('jwk', publicJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
    return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, bareSignature, signedBytes)
  }, SECONDS),
  envelopeVerify: await perSecond(() => verifyRuntimeEnvelope(envelope, sent, { jwks, now }), SECONDS),
}

printRates([
  ['bare node:crypto P-256 sign', figures.bareSign],
  ['signEnvelope', figures.envelopeSign],
  ['bare WebCrypto import + verify', figures.bareVerify],
  ['verifyRuntimeEnvelope', figures.envelopeVerify],
], SECONDS)
for (const [name, bare, real] of [['sign', figures.bareSign, figures.envelopeSign], ['verify', figures.bareVerify, figures.envelopeVerify]] as const) {
  const ratio = bare / real
  console.log(`envelope ${name} / bare ${name} (time per call): ${ratio.toFixed(2)}× (target ≤ 1.3×) ${ratio <= 1.3 ? 'MET' : 'NOT MET'}`)
}
