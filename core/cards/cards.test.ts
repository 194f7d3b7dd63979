/**
 * Recording sealed sports cards and discovering them: only a sealed image this deployment verifies,
 * carrying the image the manifest's claim binds, under a manifest that keeps the Sports rules, is
 * recorded — with its transparency-log leaf in the same commit, once per claim — and discovery
 * pages through what was recorded. Bad input and a fault at any Store call write nothing half.
 */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { PNG } from 'pngjs'
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/index.js'
import { pngFile } from '../../conformance/proof/payloads.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../conformance/fault-injection.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { sha256Hex } from '../digest/sha256.js'
import { ANONYMOUS } from '../auth/principal.js'
import { claimHashOf } from '../sports/rules.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import { collections } from '../usecases/collections.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import type { CoreDeps, UseCase } from '../usecases/use-case.js'
import type { Json } from '../../ports/store.js'
import { CARD_LEAF_KIND, CARDS, cardRecords } from './card-records.js'
import { cardUseCases } from './index.js'

let runtime: RuntimeTestWorld
beforeEach(async () => {
  runtime = await createRuntimeTestWorld()
  await runtime.deps.store.declare(collections)
})

const imageOf = (seed: number) => pngFile([Uint8Array.from({ length: 64 }, (_, i) => (i * 31 + seed) % 256)])

async function sealedB64u(bytes: Uint8Array, filename = 'card.png', mimeType = 'image/png'): Promise<string> {
  return bodyOf<{ sealedBytesB64u: string }>(await runtime.call('sealDocument', { body: { file: { filename, mimeType, bytes } } })).sealedBytesB64u
}

function manifestFor(image: Uint8Array, collectibleId: string, valueBasis: Record<string, string> = { basis: 'none' }) {
  const claim = { sport: 'baseball', collectibleId, card: { name: 'Mickey Mantle', imageSha256: sha256Hex(image) } }
  return {
    schema: 'cairn.sports_card_manifest.v1', ...claim, claimHash: claimHashOf(claim), ownership: { verified: false }, valueBasis,
    links: { verify: 'https://cairn.test/verify' },
  }
}

const record = (body: unknown) => runtime.call('recordCard', { body })
const written = async () => JSON.stringify([
  (await runtime.deps.store.query(CARDS, { index: 'by_recorded', limit: 100 })).items,
  (await runtime.deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items.length,
])

describe('recording a sealed card', () => {
  it('records once per claim with its log leaf, answers the first record again, and lists it in discovery', async () => {
    const image = imageOf(1)
    const body = { manifest: manifestFor(image, 'topps-1952-311'), sealedImageB64u: await sealedB64u(image) }
    const created = bodyOf<{ created: boolean; logLeafIndex: number; card: { cardId: string; claimHash: string; verifyUrl: string } }>(await record(body))
    expect(created.created).toBe(true)
    expect(created.card.cardId).toBe(`card_${body.manifest.claimHash.slice(0, 32)}`)
    expect(created.card.verifyUrl).toMatch(/^https:\/\/cairn\.test\/verify\//)
    const leaves = (await runtime.deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items
    expect(leaves[created.logLeafIndex]!.value).toMatchObject({ kind: CARD_LEAF_KIND, cardId: created.card.cardId, claimHash: created.card.claimHash })

    expect(bodyOf(await record(body))).toMatchObject({ created: false, card: created.card })
    const other = { ...body, manifest: manifestFor(image, 'topps-1952-311', { basis: 'last-sale', amountUsdCents: '100', asOf: '2026-01-01T00:00:00.000Z' }) }
    expect(await record(other)).toEqual(E.left(expect.objectContaining({ _tag: 'Conflict' })))

    const listed = bodyOf<{ count: number; cards: { cardId: string }[] }>(await runtime.call('listDiscoverableCards'))
    expect(listed.cards.map((card) => card.cardId)).toEqual([created.card.cardId])
  })

  it('stores the manifest as sent and reads it back decoded; a stored card whose manifest does not decode is a corrupt document', async () => {
    const image = imageOf(7)
    const body = { manifest: manifestFor(image, 'topps-1952-7'), sealedImageB64u: await sealedB64u(image) }
    const { card } = bodyOf<{ card: { cardId: string } }>(await record(body))
    const stored = (await runtime.deps.store.get(CARDS, card.cardId))!
    expect((stored.value as Record<string, Json>).manifest).toEqual(body.manifest)
    expect((await cardRecords.get(runtime.deps.store, card.cardId))?.value.manifest).toEqual(body.manifest)

    const { links: _, ...withoutLinks } = body.manifest
    const corrupt = { ...(stored.value as Record<string, Json>), manifest: withoutLinks }
    await runtime.deps.store.commit([{ kind: 'put', collection: CARDS, key: card.cardId, value: corrupt, expect: { kind: 'version', version: stored.version } }])
    const recordedAgain = (cardUseCases.recordCard as unknown as UseCase)({ params: {}, query: {}, body, principal: ANONYMOUS }, runtime.deps)
    await expect(recordedAgain).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(recordedAgain).rejects.toThrow(`Stored document ${CARDS}/${card.cardId} does not match its codec at manifest.links`)
  })

  it('refuses what it cannot vouch for, writing nothing', async () => {
    const image = imageOf(2)
    const sealed = await sealedB64u(image)
    const good = manifestFor(image, 'fleer-1986-57')
    const sealedJson = await sealedB64u(new TextEncoder().encode('{"a":1}'), 'card.json', 'application/json')
    const before = await written()
    const cases: [unknown, string][] = [
      [{ manifest: good }, 'InvalidInput'],
      [{ manifest: { ...good, claimHash: '0'.repeat(64) }, sealedImageB64u: sealed }, 'Unprocessable'],
      [{ manifest: { ...good, sport: 'Baseball' }, sealedImageB64u: sealed }, 'Unprocessable'],
      [{ manifest: good, sealedImageB64u: Buffer.from(image).toString('base64url') }, 'Unprocessable'], // not sealed
      [{ manifest: manifestFor(imageOf(3), 'fleer-1986-57'), sealedImageB64u: sealed }, 'Unprocessable'], // another image
      [{ manifest: good, sealedImageB64u: sealedJson }, 'Unprocessable'], // sealed, but not an image
    ]
    for (const [body, tag] of cases) expect(await record(body)).toEqual(E.left(expect.objectContaining({ _tag: tag })))
    const tampered = Buffer.from(sealed, 'base64url')
    tampered[40] = tampered[40]! ^ 1
    expect(await record({ manifest: good, sealedImageB64u: tampered.toString('base64url') })).toEqual(E.left(expect.objectContaining({ _tag: 'Unprocessable' })))
    const broken = await record({ manifest: { ...good, valueBasis: { basis: 'auction' } }, sealedImageB64u: sealed })
    expect(broken).toEqual(E.left(expect.objectContaining({ message: expect.stringContaining('priced-basis-needs-amount, priced-basis-needs-as-of') })))
    expect(await written()).toBe(before)
  })
})

describe('discovery', () => {
  it('pages newest first with an opaque cursor, and refuses a cursor of another listing', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const image = imageOf(10 + i)
      const created = bodyOf<{ card: { cardId: string } }>(await record({ manifest: manifestFor(image, `set-${i}`), sealedImageB64u: await sealedB64u(image) }))
      ids.push(created.card.cardId)
      ;(runtime.deps.clock as unknown as { advance(ms: number): void }).advance(1000)
    }
    const first = bodyOf<{ cards: { cardId: string }[]; nextCursor: string | null }>(await runtime.call('listDiscoverableCards', { query: { limit: '2' } }))
    expect(first.cards.map((card) => card.cardId)).toEqual([ids[2], ids[1]])
    const second = bodyOf<{ cards: { cardId: string }[]; nextCursor: string | null }>(await runtime.call('listDiscoverableCards', { query: { limit: '2', cursor: first.nextCursor! } }))
    expect(second.cards.map((card) => card.cardId)).toEqual([ids[0]])
    expect(await runtime.call('listDiscoverableCards', { query: { cursor: 'not-a-cursor' } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
  })
})

describe('recording under a fault at every Store call', () => {
  it('writes the card with its leaf or neither, and a retry records it once', async () => {
    const image = imageOf(20)
    const body = { manifest: manifestFor(image, 'fault-1'), sealedImageB64u: await sealedB64u(image) }
    const methods: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']
    const run = (deps: CoreDeps) => (cardUseCases.recordCard as unknown as UseCase)({ params: {}, query: {}, body, principal: ANONYMOUS }, deps)
    // The sealed image verifies offline against the world's keys: each attempt gets a fresh store.
    const fresh = async (): Promise<CoreDeps> => {
      const store = new MemoryStore()
      await store.declare(collections)
      return { ...runtime.deps, store }
    }
    const clean = await fresh()
    const counting = withFaults(clean.store, [])
    expect(E.isRight(await run({ ...clean, store: counting }))).toBe(true)
    let faults = 0
    for (const method of methods) {
      for (let call = 1; call <= counting.callsOf(method); call++) {
        for (const when of ['before', 'after'] as const) {
          const deps = await fresh()
          const outcome = await run({ ...deps, store: withFaults(deps.store, [{ method, call, when }]) }).then(() => 'answered', (error: unknown) => {
            if (!(error instanceof InjectedFaultError)) throw error
            return 'failed'
          })
          faults += outcome === 'failed' ? 1 : 0
          const whole = async () => {
            const cards = (await deps.store.query(CARDS, { index: 'by_recorded', limit: 10 })).items.length
            const leaves = (await deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items.filter((entry) => (entry.value as { kind: string }).kind === CARD_LEAF_KIND).length
            expect(leaves).toBe(cards)
            return cards
          }
          await whole()
          expect(E.isRight(await run(deps))).toBe(true)
          expect(await whole()).toBe(1)
        }
      }
    }
    expect(faults).toBeGreaterThan(0)
  })
})

describe('card art', () => {
  const claimHash = '5a5c182795c0fc3578eee62f498f5f8347e5299c8a7e1813f9299b1c10e7857f'
  const cardId = `card_${claimHash.slice(0, 32)}`

  it('is generated once, retrieved after, and served immutable with its SHA-256 as ETag', async () => {
    const made = bodyOf<{ created: boolean; art: { sha256: string; imageUrl: string; generator: string } }>(await runtime.call('generateCardArt', { body: { cardId, claimHash } }))
    expect(made).toMatchObject({ created: true, art: { generator: 'procedural-art/1', imageUrl: `https://cairn.test/api/game/signal-run/cards/art-image?cardId=${cardId}&claimHash=${claimHash}` } })
    expect(bodyOf(await runtime.call('generateCardArt', { body: { cardId, claimHash } }))).toEqual({ ...made, created: false })
    const image = await runtime.call('getCardArtImage', { query: { cardId, claimHash } })
    if (E.isLeft(image) || image.right.kind !== 'bytes') throw new Error('expected bytes')
    expect(image.right.contentType).toBe('image/png')
    expect(sha256Hex(image.right.bytes)).toBe(made.art.sha256)
    expect(image.right.headers).toEqual({ 'cache-control': 'public, max-age=31536000, immutable', etag: `"${made.art.sha256}"` })
  })

  it('refuses a card id the claim hash does not give, a malformed hash and art never made, writing nothing', async () => {
    expect(await runtime.call('generateCardArt', { body: { cardId: 'card_other', claimHash } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await runtime.call('generateCardArt', { body: { cardId } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await runtime.call('getCardArtImage', { query: { cardId, claimHash: 'zz' } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await runtime.call('getCardArtImage', { query: { cardId, claimHash } })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
    expect(await runtime.deps.store.get('cards.art', cardId)).toBeUndefined()
  })
})

describe('card art under a fault at every Store call', () => {
  it('stores the art record whole or not at all, and a retry answers one art', async () => {
    const claimHash = '3853ec072b5c58f54678d0392d5539e8cb227d782995f5fb0c63eff3b13c9c35'
    const body = { cardId: `card_${claimHash.slice(0, 32)}`, claimHash }
    const run = (deps: CoreDeps) => (cardUseCases.generateCardArt as unknown as UseCase)({ params: {}, query: {}, body, principal: ANONYMOUS }, deps)
    const counting = withFaults(runtime.deps.store, [])
    await run({ ...runtime.deps, store: counting })
    for (const method of ['get', 'commit'] as const) {
      for (let call = 1; call <= counting.callsOf(method); call++) {
        for (const when of ['before', 'after'] as const) {
          const store = new MemoryStore()
          await store.declare(collections)
          const deps = { ...runtime.deps, store }
          await run({ ...deps, store: withFaults(store, [{ method, call, when }]) }).catch((error: unknown) => {
            if (!(error instanceof InjectedFaultError)) throw error
          })
          const first = await store.get('cards.art', body.cardId)
          const retried = bodyOf<{ art: { sha256: string } }>(await run(deps))
          if (first) expect(retried.art.sha256).toBe((first.value as { sha256: string }).sha256)
          expect(await deps.blobs.has(retried.art.sha256)).toBe(true)
        }
      }
    }
  })
})

describe('share image', () => {
  it('is a deterministic PNG of a recorded card, saved to look at; an unknown card is 404', async () => {
    const image = imageOf(30)
    const manifest = manifestFor(image, 'topps-1952-311')
    const created = bodyOf<{ card: { cardId: string } }>(await record({ manifest, sealedImageB64u: await sealedB64u(image) }))
    await runtime.call('generateCardArt', { body: { cardId: created.card.cardId, claimHash: manifest.claimHash } })
    const first = await runtime.call('getCardShareImage', { params: { cardId: created.card.cardId } })
    const again = await runtime.call('getCardShareImage', { params: { cardId: created.card.cardId } })
    if (E.isLeft(first) || first.right.kind !== 'bytes' || E.isLeft(again) || again.right.kind !== 'bytes') throw new Error('expected bytes')
    expect(first.right.contentType).toBe('image/png')
    expect(sha256Hex(again.right.bytes)).toBe(sha256Hex(first.right.bytes))
    const decoded = PNG.sync.read(Buffer.from(first.right.bytes))
    expect([decoded.width, decoded.height]).toEqual([360, 504])
    writeFileSync(join(tmpdir(), 'cairn-share-image.png'), first.right.bytes)
    expect(await runtime.call('getCardShareImage', { params: { cardId: 'card_unknown' } })).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound' })))
  })
})
