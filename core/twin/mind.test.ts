/**
 * The Twin mind round trip over real bearer tokens: the export is a PNG any decoder opens, sealed as
 * the owner's proof object; another account inspects and imports it and the summary matches; one
 * flipped byte, a mind sealed by another deployment or an unsealed PNG is refused with the reasons.
 */
import * as E from 'fp-ts/lib/Either.js'
import { PNG } from 'pngjs'
import { beforeEach, describe, expect, it } from 'vitest'
import { bodyOf, testDeployment } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { sha256Hex } from '../digest/sha256.js'
import { collections } from '../usecases/collections.js'
import { mindOf, withMind } from './mind.js'

const SCOPES = ['cairn:twin.read', 'cairn:twin.write']
let runtime: RuntimeTestWorld
let token: string
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ deployment: testDeployment() })
  await runtime.deps.store.declare(collections)
  token = await runtime.tokenFor(SCOPES)
})

async function exported(world: RuntimeTestWorld, as: string): Promise<Uint8Array> {
  const reply = await world.call('exportTwinMind', { token: as })
  if (E.isLeft(reply) || reply.right.kind !== 'bytes') throw new Error(`expected bytes, got ${JSON.stringify(reply)}`)
  expect(reply.right.contentType).toBe('image/png')
  return reply.right.bytes
}
const file = (bytes: Uint8Array) => ({ mind: { filename: 'mind.png', mimeType: 'image/png', bytes } })
interface Summary { artifactSha256: string; verified: boolean; imported: boolean; entries?: number; exportedAt?: string; keyId?: string; warnings: string[] }

describe('the Twin mind', () => {
  it('exports as a PNG that opens as an image, and imports elsewhere with a matching summary', async () => {
    await runtime.call('saveTwinMarketMandate', { body: { maxOrderUsdCents: '5000', riskLevel: 'high' }, token })
    await runtime.call('createTwinMarketIntent', { body: { marketId: 'btc-usd', side: 'buy', amountUsdCents: '100' }, token })
    const bytes = await exported(runtime, token)
    expect(PNG.sync.read(Buffer.from(bytes)).width).toBe(128)

    const inspected = bodyOf<{ summary: Summary }>(await runtime.call('inspectTwinMind', { body: file(bytes), token })).summary
    expect(inspected).toMatchObject({ artifactSha256: sha256Hex(bytes), verified: true, imported: false, entries: 2 })

    // Another account of the same deployment imports it: its Twin takes the mandate.
    const other = await runtime.world.signIn('ben')
    const benToken = bodyOf<{ accessToken: string }>(await runtime.world.call('createAgentToken', {
      body: { clientId: 'com.example.notes', scopes: SCOPES, label: 'ben' }, credentials: { sessionCookie: other.cookie },
    })).accessToken
    const imported = bodyOf<{ summary: Summary }>(await runtime.call('importTwinMind', { body: file(bytes), token: benToken })).summary
    expect(imported).toEqual({ ...inspected, imported: true })
    expect(bodyOf<{ mandate: Record<string, unknown> }>(await runtime.call('getTwinMarketMandate', { body: {}, token: benToken })).mandate).toMatchObject({ maxOrderUsdCents: '5000', riskLevel: 'high' })
  })

  it('refuses a flipped byte, a mind sealed by another deployment and an unsealed PNG, importing nothing', async () => {
    const bytes = await exported(runtime, token)
    const flipped = Uint8Array.from(bytes)
    flipped[200] = flipped[200]! ^ 1
    const elsewhere = await createRuntimeTestWorld({ deployment: testDeployment() })
    await elsewhere.deps.store.declare(collections)
    const foreign = await exported(elsewhere, await elsewhere.tokenFor(SCOPES))
    const unsealed = withMind((await runtime.deps.images!.generate({ claimHash: '0'.repeat(64), description: '' })).bytes, { schema: 'cairn.twin_mind.v1', username: 'x', exportedAt: '2026-01-01T00:00:00.000Z', entries: [] })
    for (const candidate of [flipped, foreign, unsealed]) {
      const summary = bodyOf<{ summary: Summary }>(await runtime.call('inspectTwinMind', { body: file(candidate), token })).summary
      expect(summary).toMatchObject({ verified: false, imported: false })
      expect(summary.warnings.length).toBeGreaterThan(0)
      expect(await runtime.call('importTwinMind', { body: file(candidate), token })).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable', message: expect.stringMatching(/not imported/) })))
    }
    expect(bodyOf(await runtime.call('getTwinMarketMandate', { body: {}, token }))).toEqual({ ok: true, mandate: null })
  })

  it('reads back exactly the mind a PNG carries, and says why when it carries none', async () => {
    const png = (await runtime.deps.images!.generate({ claimHash: '1'.repeat(64), description: '' })).bytes
    const mind = { schema: 'cairn.twin_mind.v1' as const, username: 'ada', exportedAt: '2026-06-25T00:00:00.000Z', entries: [{ kind: 'mandate' as const, value: { riskLevel: 'low' } }] }
    expect(mindOf(withMind(png, mind))).toEqual({ mind })
    expect(mindOf(png)).toEqual({ error: 'The image carries no Twin mind' })
    expect(PNG.sync.read(Buffer.from(withMind(png, mind))).height).toBe(128)
  })
})

describe('importing under a fault at every Store call', () => {
  it('saves the mandate whole or not at all, and a retry imports it', async () => {
    const { MemoryStore } = await import('../../adapters/memory/index.js')
    const { withFaults, InjectedFaultError } = await import('../../conformance/fault-injection.js')
    const { twinUseCases } = await import('./index.js')
    await runtime.call('saveTwinMarketMandate', { body: { riskLevel: 'low' }, token })
    const bytes = await exported(runtime, token)
    const principal = { kind: 'bearer' as const, subject: 'usr_ben', clientId: 'c', scopes: SCOPES, tokenId: 't', businessTier: false }
    const run = (deps: typeof runtime.deps) => (twinUseCases.importTwinMind as unknown as import('../usecases/use-case.js').UseCase)({ params: {}, query: {}, body: file(bytes), principal }, deps)
    for (const method of ['get', 'commit'] as const) {
      for (const when of ['before', 'after'] as const) {
        const store = new MemoryStore()
        await store.declare(collections)
        const deps = { ...runtime.deps, store }
        await run({ ...deps, store: withFaults(store, [{ method, call: 1, when }]) }).catch((error: unknown) => {
          if (!(error instanceof InjectedFaultError)) throw error
        })
        const saved = await store.get('twin.mandates', 'usr_ben')
        expect(saved === undefined || (saved.value as { riskLevel: string }).riskLevel === 'low').toBe(true)
        expect(E.isRight(await run(deps))).toBe(true)
        expect(((await store.get('twin.mandates', 'usr_ben'))!.value as { riskLevel: string }).riskLevel).toBe('low')
      }
    }
  })
})
