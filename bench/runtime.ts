/**
 * `npm run bench:runtime`: the cost of signed runtime envelopes next to the bare cryptography they
 * contain, measured in the same run with the same algorithm (ES256, WebCrypto/node:crypto):
 *
 * - `signEnvelope` (receipt, binding, three digests, Kai times, KeyStore signature) vs a bare
 *   ECDSA P-256 signature over the same canonical binding bytes, twice: raw node:crypto, and jose's
 *   CompactSign (the JWS a library user would otherwise produce);
 * - `verifyRuntimeEnvelope` (key import, signature, wire/receipt/request digests, binding checks,
 *   Kai window) vs a bare ECDSA verify of the same bytes with an imported key: raw WebCrypto, and
 *   jose's importJWK + compactVerify.
 *
 * Sequential awaits on one core, memory adapters. Target: ≤ 1.3× the bare cost (time per call),
 * reported against both bare forms.
 *
 * Then staged execution: executes per second for 1, 4 and 16 participant heads on MemoryStore and
 * SqliteStore (synchronous=FULL), each a chain of pre-staged plans executed one after the other
 * (session and handle checks, the whole transition set verified, one commit of every head and the
 * execution record, the signed answer), next to the raw Store commit rate of the same writes in
 * the same run: one commit of as many head documents with version expectations plus one new
 * document, with the values the executes stored.
 *
 * Figures: bench/README.md.
 */
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto'
import { CompactSign, compactVerify, importJWK } from 'jose'
import { FixedClock, MemoryBlobStore, MemoryEventBus, MemoryKeyStore, MemoryStore, SeededEntropy } from '../adapters/memory/index.js'
import { canonicalJsonBytes } from '../core/digest/canonical-json.js'
import { chainHead, entryDigestOf } from '../core/digest/chain.js'
import { domainKeyOf, RUNTIME_DOMAIN_ADDITIONS, RUNTIME_DOMAINS } from '../core/runtime/domains/domain-records.js'
import { genesisRevocationHead } from '../core/runtime/revocation-head.js'
import { signEnvelope } from '../core/runtime/signed-envelope.js'
import { verifyRuntimeEnvelope } from '../core/runtime/verify-envelope.js'
import type { CoreDeps } from '../core/usecases/use-case.js'
import { perSecond, printRates } from './per-second.js'
import { join } from 'node:path'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { makeTempDir } from '../conformance/support/temp-dir.js'
import { EXECUTIONS, PARTICIPANT_HEADS } from '../core/runtime/runtime-collections.js'
import { createExecutionWorld, draftExecution, executeDraft, membersAtCurrentHeads, stageDraft } from '../hosts/http/execution-test-support.js'
import { APP as EXECUTION_APP } from '../hosts/http/runtime-test-support.js'
import type { Json, Store, Write } from '../ports/store.js'

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
const joseSign = () => new CompactSign(signedBytes).setProtectedHeader({ alg: 'ES256' }).sign(pair.privateKey)
const joseJws = await joseSign()

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
  joseSign: await perSecond(joseSign, SECONDS),
  joseVerify: await perSecond(async () => compactVerify(joseJws, await importJWK(publicJwk as never, 'ES256')), SECONDS),
}

printRates([
  ['bare node:crypto P-256 sign', figures.bareSign],
  ['signEnvelope', figures.envelopeSign],
  ['bare WebCrypto import + verify', figures.bareVerify],
  ['verifyRuntimeEnvelope', figures.envelopeVerify],
  ['bare jose CompactSign', figures.joseSign],
  ['bare jose import + compactVerify', figures.joseVerify],
], SECONDS)
const comparisons = [
  ['sign', 'node:crypto', figures.bareSign, figures.envelopeSign], ['sign', 'jose', figures.joseSign, figures.envelopeSign],
  ['verify', 'WebCrypto', figures.bareVerify, figures.envelopeVerify], ['verify', 'jose', figures.joseVerify, figures.envelopeVerify],
] as const
for (const [name, bareName, bare, real] of comparisons) {
  const ratio = bare / real
  console.log(`envelope ${name} / bare ${bareName} ${name} (time per call): ${ratio.toFixed(2)}× (target ≤ 1.3×) ${ratio <= 1.3 ? 'MET' : 'NOT MET'}`)
}

// Staged execution: executes per second next to raw commits of the same writes.
interface StoreTarget { readonly name: string; open(): Promise<{ store: Store; dispose(): Promise<void> }> }
const storeTargets: StoreTarget[] = [
  { name: 'memory', open: async () => ({ store: new MemoryStore(), dispose: async () => undefined }) },
  {
    name: 'sqlite',
    open: async () => {
      const dir = await makeTempDir('cairn-bench-exec-')
      const store = new SqliteStore({ file: join(dir.path, 'bench.sqlite') })
      return { store, dispose: async () => { await store.close(); await dir.remove() } }
    },
  },
]
const EXECUTES = Number(process.env.BENCH_EXECUTES ?? 200)

/** Executes a chain of `count` pre-staged plans over `heads` participants; answers executes/s and the values they stored. */
async function executeRate(store: Store, heads: number, count: number) {
  const world = await createExecutionWorld(store, { seed: `bench-${heads}`, clock: new FixedClock(Date.now()) })
  const ids = Array.from({ length: heads }, (_, i) => `h${i}`)
  let members = await membersAtCurrentHeads(world, ids)
  const staged = []
  for (let i = 0; i < count; i++) {
    const draft = draftExecution(world.deps, { applicationId: EXECUTION_APP, semanticIdempotencyKey: `bench-${i}`, members })
    staged.push({ draft, handle: await stageDraft(world, draft) })
    members = members.map((m) => ({ ...m, expectedHead: draft.transitionSet.proposedParticipantHeads[m.participantId]!, predecessor: m.candidate, candidate: m.predecessor }))
  }
  const warmUp = Math.ceil(count / 10)
  let started = 0
  for (const [index, { draft, handle }] of staged.entries()) {
    if (index === warmUp) started = performance.now()
    const answer = await executeDraft(world, draft, handle)
    if (!answer.ok || answer.wire.status !== 'committed') throw new Error(`bench execute ${index} did not commit: ${JSON.stringify(answer.ok ? answer.wire : answer.error)}`)
  }
  const rate = (count - warmUp) / ((performance.now() - started) / 1000)
  const head = (await store.query(PARTICIPANT_HEADS, { index: 'byApplication', limit: 1 })).items[0]!.value
  const execution = (await store.query(EXECUTIONS, { index: 'byApplication', limit: 1, order: 'desc' })).items[0]!.value
  const domain = (await store.get(RUNTIME_DOMAINS, domainKeyOf({ applicationId: EXECUTION_APP, domainId: 'notes' })))!.value
  const addition = (await store.get(RUNTIME_DOMAIN_ADDITIONS, `${domainKeyOf({ applicationId: EXECUTION_APP, domainId: 'notes' })}:0`))!.value
  return { rate, values: { head, execution, domain, addition } }
}

/**
 * Raw commits of what one execute commits, with the values it stored: `heads` version-guarded
 * puts, one new execution document, the domain record (version-guarded) and, per head, one stream
 * append and one new addition document.
 */
async function rawCommitRate(store: Store, heads: number, values: { head: Json; execution: Json; domain: Json; addition: Json }): Promise<number> {
  await store.declare([{ name: 'bench_heads' }, { name: 'bench_executions' }, { name: 'bench_domains' }, { name: 'bench_additions' }])
  let versions = Array.from({ length: heads }, () => 0)
  let domainVersion = 0
  let streamHead: string | null = null
  let n = 0
  return perSecond(async () => {
    const writes: Write[] = versions.map((version, i) => ({ kind: 'put', collection: 'bench_heads', key: `h${i}`, value: values.head, expect: version === 0 ? { kind: 'absent' } : { kind: 'version', version } }))
    writes.push({ kind: 'put', collection: 'bench_executions', key: `e${n}`, value: values.execution, expect: { kind: 'absent' } })
    writes.push({ kind: 'put', collection: 'bench_domains', key: 'd', value: values.domain, expect: domainVersion === 0 ? { kind: 'absent' } : { kind: 'version', version: domainVersion } })
    for (let i = 0; i < heads; i++) {
      const value: Json = { ...(values.addition as Record<string, Json>), appendId: `e${n}.${i}` }
      writes.push({ kind: 'append', stream: 'bench.domain', value, expectHead: streamHead })
      writes.push({ kind: 'put', collection: 'bench_additions', key: `e${n}.${i}`, value: values.addition, expect: { kind: 'absent' } })
      streamHead = chainHead(streamHead, entryDigestOf(value))
    }
    n++
    const outcome = await store.commit(writes)
    if (!outcome.ok) throw new Error('raw bench commit conflicted')
    versions = versions.map((version) => version + 1)
    domainVersion += 1
  }, SECONDS)
}

console.log('')
console.log(`staged execution: ${EXECUTES} pre-staged plans per row (fewer for more heads), sequential awaits; raw commits ${SECONDS}s per row`)
console.log('store    heads   executes/s   raw commits/s   execute / raw (time per call)')
for (const target of storeTargets) {
  for (const heads of [1, 4, 16]) {
    const count = Math.max(40, Math.round(EXECUTES / Math.sqrt(heads)))
    const forExecutes = await target.open()
    const executed = await executeRate(forExecutes.store, heads, count)
    await forExecutes.dispose()
    const forRaw = await target.open()
    const raw = await rawCommitRate(forRaw.store, heads, executed.values)
    await forRaw.dispose()
    console.log(`${target.name.padEnd(8)} ${String(heads).padStart(5)} ${executed.rate.toFixed(0).padStart(12)} ${raw.toFixed(0).padStart(15)} ${(raw / executed.rate).toFixed(1).padStart(10)}×`)
  }
}
