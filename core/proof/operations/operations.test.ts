/**
 * The Verification and Connect use cases over in-memory ports: seal (integrity-only and owned
 * proof objects), verify, claim lookups, records, conformance; a fault at every Store call of a
 * seal leaves nothing half written; bad input writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../adapters/memory/index.js'
import { withFaults, type StoreMethod } from '../../../conformance/fault-injection.js'
import { pngFile } from '../../../conformance/proof/payloads.js'
import { memoryDeps } from '../../../hosts/http/describe-env.js'
import type { Principal } from '../../auth/principal.js'
import { canonicalJsonBytes } from '../../digest/canonical-json.js'
import { fromBase64Url } from '../../encoding/base64url.js'
import { IDENTITIES, identityValue, type IdentityRecord } from '../../identity/identities.js'
import { ACTION_LEDGER_STREAM } from '../../ledger/action-ledger.js'
import { LOG_LEAF_STREAM } from '../../tlog/sequence.js'
import { collections } from '../../usecases/collections.js'
import type { CoreDeps, OperationRequest, Reply } from '../../usecases/use-case.js'
import type { DomainError } from '../../errors/domain-error.js'
import { PROOF_SEALS } from '../seal-records.js'
import { serviceTrust } from '../service-trust.js'
import { unseal } from '../open-artifact.js'
import { verifyArtifact } from '../verify.js'
import { verifySignature } from '../web-crypto.js'
import { proofUseCases } from './index.js'

const encoder = new TextEncoder()
const ANONYMOUS: Principal = { kind: 'anonymous' }
const BEARER: Principal = { kind: 'bearer', subject: 'usr_ada', clientId: 'app', scopes: ['cairn:record', 'cairn:seal', 'cairn:verify'], tokenId: 't1', businessTier: false }

async function freshDeps(store = new MemoryStore()): Promise<CoreDeps> {
  const deps = memoryDeps({ baseUrl: 'https://cairn.example', store })
  await store.declare(collections)
  return deps
}

type AnyUseCase = (request: OperationRequest, deps: CoreDeps) => Promise<E.Either<DomainError, Reply>>
async function run(id: keyof typeof proofUseCases, deps: CoreDeps, body: unknown, principal: Principal = ANONYMOUS) {
  return (proofUseCases[id] as unknown as AnyUseCase)({ params: {}, query: {}, body, principal }, deps)
}
function bodyOf(reply: E.Either<DomainError, Reply>): Record<string, any> {
  if (E.isLeft(reply)) throw new Error(reply.left.message)
  if (reply.right.kind !== 'json') throw new Error('not json')
  return reply.right.body as Record<string, any>
}

const file = (bytes: Uint8Array, filename = 'image.png', mimeType = 'image/png') => ({ file: { bytes, filename, mimeType } })

async function snapshot(store: MemoryStore) {
  const seals = await store.query(PROOF_SEALS, { index: 'bySha256', limit: 1000 })
  const ledger = await store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })
  const leaves = await store.readStream(LOG_LEAF_STREAM, { limit: 1000 })
  return { seals: seals.items.length, ledger: ledger.items.length, leaves: leaves.items.length }
}

describe('Verification operations', () => {
  it('document-seal: an integrity-only seal, recorded with its ledger event and log leaf in one commit; verify reads it back', async () => {
    const store = new MemoryStore()
    const deps = await freshDeps(store)
    const original = pngFile([encoder.encode('pixels')])
    const reply = await run('sealDocument', deps, file(original))
    const body = bodyOf(reply)
    expect(body).toMatchObject({ ok: true, kind: 'integrity-seal', filename: 'image.png', mimeType: 'image/png', byteLength: original.length })
    expect(body.proof.verifyUrl).toBe(`https://cairn.example${body.proof.verifyPath}`)
    expect(body).not.toHaveProperty('manifest')
    const sealed = fromBase64Url(body.sealedBytesB64u)!
    expect(unseal(sealed)).toEqual(original)
    expect(E.isRight(reply) && reply.right.kind === 'json' && reply.right.download?.bytes).toEqual(sealed)
    expect(await snapshot(store)).toEqual({ seals: 1, ledger: 1, leaves: 1 })
    const verdict = bodyOf(await run('verifyDocument', deps, file(sealed)))
    expect(verdict).toMatchObject({ ok: true, kind: 'integrity-seal', errors: [], sha256: body.sourceSha256 })
    expect(verdict.warnings[0]).toMatch(/^Integrity-only seal/)
  })

  it('assets/seal: a proof object naming its owner and ID keys, with the CairnAssetManifest stored in the same commit', async () => {
    const store = new MemoryStore()
    const deps = await freshDeps(store)
    const at = new Date(deps.clock.now()).toISOString()
    const ada: IdentityRecord = { userId: 'usr_ada', username: 'ada', displayName: 'Ada', email: null, localUid: 'l', keys: [{ keyId: 'thumb-1', alg: 'EdDSA', publicKeyRawB64u: 'x', boundAt: at }], createdAt: at, updatedAt: at }
    await store.commit([{ kind: 'put', collection: IDENTITIES, key: ada.userId, value: identityValue(ada), expect: { kind: 'absent' } }])
    const body = bodyOf(await run('sealOwnedAsset', deps, file(encoder.encode('{"a":1}'), 'a.json', 'application/json'), { kind: 'session', userId: 'usr_ada', sessionId: 's', businessTier: false, authTimeMs: 0 }))
    expect(body).toMatchObject({ ok: true, kind: 'proof-object', manifest: { schema: 'cairn.asset_manifest.v1', assetType: 'data', links: { verify: body.proof.verifyUrl } } })
    const stored = (await store.get(PROOF_SEALS, body.proof.code))!.value as Record<string, any>
    expect(stored.manifest).toEqual(body.manifest)
    expect(stored.statement.owner).toEqual({ userId: 'usr_ada', username: 'ada', idKeyThumbprints: ['thumb-1'] })
    const verdict = await verifyArtifact(fromBase64Url(body.sealedBytesB64u)!, await serviceTrust(deps))
    expect(verdict).toMatchObject({ ok: true, kind: 'proof-object', details: { owner: { userId: 'usr_ada', username: 'ada' }, countersignedByOwner: false } })
  })

  it('document-verify answers a tampered, an unsealed and an empty file with ok: false and errors, never an error reply', async () => {
    const deps = await freshDeps()
    const sealed = fromBase64Url(bodyOf(await run('sealDocument', deps, file(pngFile([encoder.encode('pixels')])))).sealedBytesB64u)!
    const tampered = sealed.slice()
    tampered[tampered.indexOf(0x70)] = 0x50
    for (const [bytes, error] of [[tampered, /^Payload digest/], [pngFile([]), /^No proof found/], [new Uint8Array(), /^The file is empty/], [encoder.encode('%PDF-1.7 /Type/CairnProof'), /^Malformed carrier/]] as const) {
      const verdict = bodyOf(await run('verifyDocument', deps, file(bytes)))
      expect(verdict.ok).toBe(false)
      expect(verdict.errors[0]).toMatch(error)
    }
  })

  it('bad input to a seal is a 4XX and writes nothing: empty, truncated PNG, already sealed', async () => {
    const store = new MemoryStore()
    const deps = await freshDeps(store)
    const sealed = fromBase64Url(bodyOf(await run('sealDocument', deps, file(pngFile([encoder.encode('one')])))).sealedBytesB64u)!
    const before = await snapshot(store)
    const png = pngFile([encoder.encode('x')])
    for (const bytes of [new Uint8Array(), png.subarray(0, png.length - 3), sealed]) {
      const reply = await run('sealDocument', deps, file(bytes))
      expect(E.isLeft(reply) && reply.left._tag).toBe('InvalidInput')
    }
    expect(await snapshot(store)).toEqual(before)
  })

  it('a fault at every Store call of a seal leaves the seal whole or absent, never half written', async () => {
    const methods: StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
    for (const method of methods) {
      for (let call = 1; call <= 6; call++) {
        for (const when of ['before', 'after'] as const) {
          const store = new MemoryStore()
          const deps = await freshDeps(store)
          const faulty = { ...deps, store: withFaults(store, [{ method, call, when }]) }
          await run('sealDocument', faulty, file(pngFile([encoder.encode(`${method}${call}${when}`)]))).catch(() => undefined)
          const state = await snapshot(store)
          expect([{ seals: 0, ledger: 0, leaves: 0 }, { seals: 1, ledger: 1, leaves: 1 }], `${method} #${call} ${when}`).toContainEqual(state)
        }
      }
    }
  })

  it('verify: claim coordinates answer signed verdict envelopes of what the registry holds', async () => {
    const deps = await freshDeps()
    const sealed = bodyOf(await run('sealDocument', deps, file(pngFile([encoder.encode('claim')]))))
    const trust = await serviceTrust(deps)
    for (const coordinates of [{ code: sealed.proof.code }, { slug: sealed.proof.slug }, { verifyUrl: sealed.proof.verifyUrl }, { sha256: sealed.sourceSha256 }]) {
      const body = bodyOf(await run('verifyClaim', deps, coordinates))
      expect(body.found).toBe(true)
      const { envelope, signature } = body.envelopes[0]
      expect(envelope).toMatchObject({ schema: 'cairn.verdict_envelope.v1', found: true, entry: { code: sealed.proof.code, sha256: sealed.sourceSha256, sealKind: 'integrity-seal' } })
      const key = trust.proofKeys.find((candidate) => candidate.kid === signature.kid)!
      expect(await verifySignature(signature.alg, key, canonicalJsonBytes(envelope), signature.sig)).toBe(true)
    }
    expect(bodyOf(await run('verifyClaim', deps, { sha256: '0'.repeat(64) })).envelopes[0].envelope.found).toBe(false)
    for (const bad of [undefined, {}, { sha256: 'xyz' }, { code: 5 }]) expect(E.isLeft(await run('verifyClaim', deps, bad))).toBe(true)
  })

  it('conformance runs the golden vectors live; the legacy surface names its successors', async () => {
    const deps = await freshDeps()
    const report = bodyOf(await run('getVerificationConformance', deps, undefined))
    expect(report).toMatchObject({ ok: true, passed: 17, total: 17, revision: { format: 'cairn.proof.v2' } })
    expect(report.revision.vectorsSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(bodyOf(await run('getLegacySurface', deps, undefined)).successors.integritySeal).toBe('https://cairn.example/api/document-seal')
  })
})

describe('Connect record, seal, verify (on behalf of the token\'s user)', () => {
  it('record: a digest with its ledger event and an inclusion receipt; findable by sha256', async () => {
    const store = new MemoryStore()
    const deps = await freshDeps(store)
    const sha256 = 'a'.repeat(64)
    const body = bodyOf(await run('connectRecord', deps, { sha256, filename: 'x.txt' }, BEARER))
    expect(body).toMatchObject({ ok: true, kind: 'record', sha256, log: { leaf: { kind: 'cairn.record', sha256 }, leafIndex: 0, treeSize: 1 } })
    expect((await store.readStream(ACTION_LEDGER_STREAM)).items.map((entry) => (entry.value as { action: string }).action)).toEqual(['connect_recorded'])
    expect(bodyOf(await run('verifyClaim', deps, { sha256 })).envelopes[0].envelope.entry).toMatchObject({ type: 'record', code: body.code })
    for (const bad of [{}, { sha256: 'nope' }, { sha256, byteLength: -1 }, { sha256, filename: 3 }]) expect(E.isLeft(await run('connectRecord', deps, bad, BEARER))).toBe(true)
  })

  it('seal: JSON bytesB64u sealed integrity-only; verify: the same verdict as document-verify', async () => {
    const deps = await freshDeps()
    const bytesB64u = Buffer.from('hello').toString('base64url')
    const sealed = bodyOf(await run('connectSeal', deps, { bytesB64u, filename: 'hello.txt', mimeType: 'text/plain' }, BEARER))
    expect(sealed).toMatchObject({ ok: true, kind: 'integrity-seal', filename: 'hello.txt' })
    const verdict = bodyOf(await run('connectVerify', deps, file(fromBase64Url(sealed.sealedBytesB64u)!, 'hello.txt.cairn.zip', 'application/zip'), BEARER))
    expect(verdict).toMatchObject({ ok: true, kind: 'integrity-seal', details: { carrier: 'zip' } })
    for (const bad of [{}, { bytesB64u: '' }, { bytesB64u: '***' }, { bytesB64u, mimeType: '' }]) expect(E.isLeft(await run('connectSeal', deps, bad, BEARER))).toBe(true)
  })
})
