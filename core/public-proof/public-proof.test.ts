/**
 * The seven Public Proof operations over HTTP (in-process fetch and a listening server) and as
 * typed in-process calls: observation with URL canonicalisation, the lookups, unsigned and signed
 * partner feeds with per-record reasons, idempotent replay, the OPTIONS dry run, and every record
 * proven by the transparency log.
 */
import { generateKeyPairSync, sign } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import { issueBearerToken } from '../../conformance/support/bearer-token.js'
import { startHttpServer, type RunningServer } from '../../hosts/http/start-http-server.js'
import { pinnedOptions, PINNED_TIME } from '../../hosts/http/test-support.js'
import { createCairn, type Cairn } from '../../hosts/library/create-cairn.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { integrateAll } from '../tlog/integrate.js'
import { leafEntryBytes } from '../tlog/sequence.js'
import { leafHash } from '../tlog/merkle.js'
import { verifyInclusionReceipt } from '../tlog/inclusion.js'
import { toHex } from '../tlog/base64.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../config/deployment-config.js'
import { publicProofLeaf, type PublicProofRecord } from './records.js'
import { canonicalSourceUrl } from './canonical-url.js'

const BASE = 'http://cairn.proof.test'
const partnerKey = generateKeyPairSync('ed25519')
const otherKey = generateKeyPairSync('ed25519')
const partnerJwk = partnerKey.publicKey.export({ format: 'jwk' }) as { kty: 'OKP'; crv: 'Ed25519'; x: string }
const DEPLOYMENT = {
  ...EMPTY_DEPLOYMENT_CONFIG,
  partners: [
    { partnerId: 'shopco', keys: [{ kid: 'shop-1', kty: 'OKP' as const, crv: 'Ed25519' as const, x: partnerJwk.x }] },
    { partnerId: 'narrow', keys: [{ kid: 'narrow-1', kty: 'OKP' as const, crv: 'Ed25519' as const, x: partnerJwk.x }], namespaces: ['narrow.example'] },
  ],
}

/** Each signed feed gets the partner's next sequence and is issued a second after the last one, unless told otherwise. */
let nextSequence = 0
type UnsignedFeed = { schema: string; records: unknown[]; issuedAt?: string; sequence?: number }
const signFeed = (feed: UnsignedFeed, kid: string, key = partnerKey.privateKey, partnerId?: string) => {
  const sequence = feed.sequence ?? ++nextSequence
  const fresh = { issuedAt: feed.issuedAt ?? new Date(PINNED_TIME + sequence * 1000).toISOString(), sequence }
  const signedBytes = canonicalJsonBytes({ schema: feed.schema, issuedAt: fresh.issuedAt, sequence: fresh.sequence, records: feed.records })
  return { ...feed, ...fresh, signature: { kid, alg: 'EdDSA', sig: sign(null, signedBytes, key).toString('base64url'), ...(partnerId ? { partnerId } : {}) } }
}

describe('URL canonicalisation', () => {
  it.each([
    ['HTTPS://Example.COM:443/a/../b?x=1#top', 'https://example.com/b?x=1'],
    ['http://example.com', 'http://example.com/'],
    ['http://EXAMPLE.com:8080/p%41th/', 'http://example.com:8080/p%41th/'],
    ['https://bücher.example/ä', 'https://xn--bcher-kva.example/%C3%A4'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalSourceUrl(input)).toEqual({ _tag: 'Right', right: expect.objectContaining({ url: expected }) })
  })

  it.each(['ftp://example.com/x', 'javascript:alert(1)', 'mailto:a@example.com', 'https://user:pw@example.com/', '/relative', 'not a url', `https://example.com/${'a'.repeat(2100)}`])('refuses %s', (input) => {
    expect(canonicalSourceUrl(input)._tag).toBe('Left')
  })
})

for (const mode of ['in-process', 'listening'] as const) {
  describe(`Public Proof operations [${mode}]`, () => {
    const store = new MemoryStore()
    const keys = new MemoryKeyStore()
    let cairn: Cairn
    let server: RunningServer | undefined
    let bearer: string
    let weakBearer: string
    const call = (path: string, init?: RequestInit) => (server ? fetch(`${server.url}${path}`, init) : cairn.fetch(new Request(`${BASE}${path}`, init)))
    const post = (path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
      call(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    const feed = (body: unknown, token = bearer, method = 'POST') => post('/api/public-proof/registry/feed', body, { authorization: `Bearer ${token}` }, method)
    const integrate = () => integrateAll({ store, keys, clock: { now: () => PINNED_TIME }, config: { baseUrl: BASE, deployment: DEPLOYMENT } })
    const logSize = async () => (await store.streamHead('tlog.leaves'))?.sequence ?? 0

    beforeAll(async () => {
      cairn = createCairn(pinnedOptions({ baseUrl: BASE, store, keys, deployment: DEPLOYMENT, logIntegration: false }))
      await cairn.ready
      if (mode === 'listening') server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
      bearer = (await issueBearerToken(call, BASE, PINNED_TIME, ['cairn:record'])).accessToken
      weakBearer = (await issueBearerToken(call, BASE, PINNED_TIME, ['openid'])).accessToken
    })
    afterAll(async () => {
      await server?.close()
      await cairn.close()
    })

    it('observes a public URL once, canonically, and answers created: false after', async () => {
      const first = await post('/api/public-proof/observe', { url: 'HTTPS://Gallery.Example:443/works/../works/42?v=2#zoom', externalCreatorId: 'artist-7' })
      expect(first.status).toBe(200)
      const body = (await first.json()) as { record: PublicProofRecord; created: boolean }
      expect(body).toMatchObject({ ok: true, created: true, record: { kind: 'observed', state: 'observed', sourceUrl: 'https://gallery.example/works/42?v=2', namespace: 'gallery.example', externalCreatorId: 'artist-7' } })
      const leavesBefore = await logSize()
      const again = await post('/api/public-proof/observe', { url: 'https://gallery.example/works/42?v=2' })
      expect(await again.json()).toEqual({ ok: true, created: false, record: body.record })
      expect(await logSize()).toBe(leavesBefore) // nothing written the second time
    })

    it('refuses a URL that is not http(s), a missing URL and bad labels with a 400, writing nothing', async () => {
      const before = await logSize()
      for (const body of [{ url: 'ftp://example.com/file' }, { url: 'javascript:alert(1)' }, {}, { url: 'https://example.com/', namespace: 7 }, { url: 'https://u:p@example.com/' }]) {
        const response = await post('/api/public-proof/observe', body)
        expect(response.status, JSON.stringify(body)).toBe(400)
        expect(await response.json()).toMatchObject({ ok: false, error: expect.any(String) })
      }
      expect((await call('/api/public-proof/observe', { method: 'POST' })).status).toBe(400)
      expect(await logSize()).toBe(before)
    })

    it('looks records up by URL, by ID, by creator and by namespace (paged)', async () => {
      for (const n of [1, 2, 3]) await post('/api/public-proof/observe', { url: `https://studio.example/piece/${n}`, externalCreatorId: 'maker', namespace: 'studio' })
      const byUrl = await (await call(`/api/public-proof/by-url?url=${encodeURIComponent('https://STUDIO.example/piece/2#x')}`)).json()
      expect(byUrl).toMatchObject({ ok: true, record: { sourceUrl: 'https://studio.example/piece/2' } })
      expect(await (await call(`/api/public-proof/by-url?url=${encodeURIComponent('https://nowhere.example/')}`)).json()).toEqual({ ok: true, record: null })
      expect((await call(`/api/public-proof/by-url?url=${encodeURIComponent('ftp://studio.example/')}`)).status).toBe(400)
      expect((await call('/api/public-proof/by-url')).status).toBe(400)
      expect(await (await call(`/api/public-proof/${byUrl.record.id}`)).json()).toEqual(byUrl)
      expect((await call('/api/public-proof/pp_unknown')).status).toBe(404)

      const first = await (await call('/api/public-proof/creator/maker?limit=2')).json()
      expect(first.records).toHaveLength(2)
      const second = await (await call(`/api/public-proof/creator/maker?limit=2&cursor=${first.nextCursor}`)).json()
      expect(second.records).toHaveLength(1)
      expect([...first.records, ...second.records].map((r: PublicProofRecord) => r.sourceUrl).sort()).toEqual([1, 2, 3].map((n) => `https://studio.example/piece/${n}`))
      expect((await (await call('/api/public-proof/namespace/studio')).json()).records).toHaveLength(3)
      expect((await call('/api/public-proof/namespace/studio?cursor=garbage')).status).toBe(400)
      expect((await call('/api/public-proof/namespace/studio?limit=0')).status).toBe(400)
    })

    it('proves every record in the transparency log against the published log key', async () => {
      await integrate()
      const { verifierKey } = await (await call('/log/key')).json()
      const { record } = await (await call(`/api/public-proof/by-url?url=${encodeURIComponent('https://studio.example/piece/3')}`)).json()
      const leaf = publicProofLeaf(record)
      const receipt = await (await call(`/log/proof/leaf/${toHex(leafHash(leafEntryBytes(leaf)))}`)).json()
      expect(verifyInclusionReceipt(leaf, receipt, verifierKey)).toMatchObject({ ok: true })
      expect(verifyInclusionReceipt({ ...leaf, state: 'published' }, receipt, verifierKey).ok).toBe(false)
    })

    it('publishes an unsigned feed with the token, one reason per rejected record, and a replay changes nothing', async () => {
      const body = {
        schema: 'cairn.app_state_feed.v1',
        records: [
          { id: 'store-1', sourceUrl: 'https://shop.example/items/1', schema: 'cairn.app.public_store_state_projection.v1', data: { price: '10.00' }, externalCreatorId: 'seller' },
          { id: 'store-2', sourceUrl: 'ftp://shop.example/items/2', schema: 'cairn.app.public_store_state_projection.v1', data: {} },
          { id: 'store-1', sourceUrl: 'https://shop.example/items/1b', schema: 'x', data: {} },
          { id: 'store-3', sourceUrl: 'https://shop.example/items/3', schema: 'x', data: { blob: 'x'.repeat(17 * 1024) } },
        ],
      }
      const response = await feed(body)
      expect(response.status).toBe(200)
      const answer = await response.json()
      expect(answer).toMatchObject({ ok: true, accepted: 1, rejected: 3, records: [{ kind: 'app-state-projection', state: 'published', namespace: 'shop.example', data: { price: '10.00' } }] })
      expect(answer.rejections.map((r: { index: number }) => r.index)).toEqual([1, 2, 3])
      expect(answer.rejections[0].reason).toContain('http or https')
      expect(answer.rejections[1].reason).toContain('earlier in this feed')
      expect(answer.rejections[2].reason).toContain('at most')
      const leaves = await logSize()
      const replay = await feed(body)
      expect(await replay.json()).toEqual(answer)
      expect(await logSize()).toBe(leaves)

      const changed = await (await feed({ ...body, records: [{ ...body.records[0], data: { price: '12.00' }, updatedAt: '2026-06-25T00:00:00.000Z' }] })).json()
      expect(changed).toMatchObject({ accepted: 1, records: [{ data: { price: '12.00' }, id: answer.records[0].id }] })
      expect(await logSize()).toBe(leaves + 1)
      const stale = await (await feed({ ...body, records: [{ ...body.records[0], data: { price: '9.00' }, updatedAt: '2026-01-01T00:00:00.000Z' }] })).json()
      expect(stale).toMatchObject({ accepted: 0, rejected: 1, rejections: [{ reason: expect.stringContaining('not newer') }] })
      expect(await (await call(`/api/public-proof/by-url?url=${encodeURIComponent('https://shop.example/items/1')}`)).json()).toMatchObject({ record: { data: { price: '12.00' } } })
    })

    it('verifies signed partner feeds against the configured partner keys', async () => {
      const records = [{ id: 'p-1', sourceUrl: 'https://partner.example/a', schema: 'cairn.app.public_store_state_projection.v1', data: { n: 1 }, updatedAt: '2026-06-01T00:00:00.000Z' }]
      const signed = signFeed({ schema: 'cairn.app_state_feed.v1', records }, 'shop-1')
      const accepted = await (await feed(signed)).json()
      expect(accepted).toMatchObject({ ok: true, accepted: 1 })
      const leaves = await logSize()
      for (const bad of [
        { ...signed, records: [{ ...records[0], data: { n: 2 } }] }, // a record changed after signing
        { ...signed, sequence: signed.sequence + 1 }, // a replay with its freshness bumped
        { ...signed, issuedAt: new Date(Date.parse(signed.issuedAt) + 60_000).toISOString() },
        signFeed({ schema: 'cairn.app_state_feed.v1', records }, 'shop-1', otherKey.privateKey), // another key
        signFeed({ schema: 'cairn.app_state_feed.v1', records }, 'unknown-kid'),
        { ...signed, signature: { ...signed.signature, sig: 'AAAA' } },
        { ...signed, signature: { ...signed.signature, alg: 'RS256' } },
      ]) {
        const response = await feed(bad)
        expect(response.status, JSON.stringify(bad)).toBe(400)
        expect((await response.json()).error).toMatch(/signature|key|algorithm/)
      }
      expect(await logSize()).toBe(leaves)
      const narrow = await (await feed(signFeed({ schema: 'cairn.app_state_feed.v1', records }, 'narrow-1', partnerKey.privateKey, 'narrow'))).json()
      expect(narrow).toMatchObject({ accepted: 0, rejected: 1, rejections: [{ reason: expect.stringContaining('may not publish into namespace partner.example') }] })
    })

    it('refuses a replayed signed feed: an old feed cannot roll the partner\'s records back, and nothing is written', async () => {
      const record = { id: 'replay-1', sourceUrl: 'https://partner.example/replay', schema: 's' }
      const at = (offsetMs: number) => new Date(PINNED_TIME + offsetMs).toISOString()
      const older = signFeed({ schema: 'cairn.app_state_feed.v1', records: [{ ...record, data: { price: '10.00' }, updatedAt: at(-60_000) }] }, 'shop-1')
      const newer = signFeed({ schema: 'cairn.app_state_feed.v1', records: [{ ...record, data: { price: '12.00' }, updatedAt: at(-30_000) }] }, 'shop-1')
      expect((await feed(older)).status).toBe(200)
      expect(await (await feed(newer)).json()).toMatchObject({ ok: true, accepted: 1 })
      const current = async () => (await (await call(`/api/public-proof/by-url?url=${encodeURIComponent(record.sourceUrl)}`)).json()).record
      const published = await current()
      expect(published).toMatchObject({ data: { price: '12.00' } })
      const leaves = await logSize()

      // Anyone holding a cairn:record token replays the partner's older signed feed, or the newest one again.
      const replayed = await feed(older, bearer)
      expect(replayed.status).toBe(409)
      expect(await replayed.json()).toEqual({ ok: false, error: expect.stringMatching(/sequence \d+ is not newer than the last feed accepted from partner shopco/) })
      const again = await feed(newer, bearer)
      expect(again.status).toBe(409)
      expect((await again.json()).error).toMatch(/accepted already/)
      // A later sequence issued before the last accepted feed, a feed issued a day ago or in the future.
      for (const [stale, status, reason] of [
        [signFeed({ schema: 'cairn.app_state_feed.v1', issuedAt: at(-45_000), records: [{ ...record, data: { price: '1.00' }, updatedAt: at(1000) }] }, 'shop-1'), 409, /older than the last feed accepted/],
        [signFeed({ schema: 'cairn.app_state_feed.v1', issuedAt: at(-25 * 3600_000), records: [{ ...record, data: { price: '1.00' }, updatedAt: at(1000) }] }, 'shop-1'), 422, /hours old/],
        [signFeed({ schema: 'cairn.app_state_feed.v1', issuedAt: at(3600_000), records: [{ ...record, data: { price: '1.00' }, updatedAt: at(1000) }] }, 'shop-1'), 422, /in the future/],
      ] as const) {
        const refused = await feed(stale)
        expect(refused.status, JSON.stringify(stale.issuedAt)).toBe(status)
        expect((await refused.json()).error).toMatch(reason)
      }
      // A signed feed without its freshness fields is refused before anything else.
      const { issuedAt: _issuedAt, sequence: _sequence, ...bare } = signFeed({ schema: 'cairn.app_state_feed.v1', records: [] }, 'shop-1')
      expect((await feed(bare)).status).toBe(400)
      expect(await current()).toEqual(published)
      expect(await logSize()).toBe(leaves)
    })

    it('requires updatedAt on every signed partner record, strictly newer than the published one', async () => {
      const record = { id: 'fresh-1', sourceUrl: 'https://partner.example/fresh', schema: 's' }
      const first = await (await feed(signFeed({ schema: 'cairn.app_state_feed.v1', records: [{ ...record, data: { v: 1 }, updatedAt: '2026-06-01T00:00:00.000Z' }] }, 'shop-1'))).json()
      expect(first).toMatchObject({ accepted: 1 })
      const leaves = await logSize()
      const refused = await (await feed(signFeed({ schema: 'cairn.app_state_feed.v1', records: [
        { ...record, data: { v: 2 } },
        { ...record, id: 'fresh-2', data: { v: 2 } },
      ] }, 'shop-1'))).json()
      expect(refused).toMatchObject({ accepted: 0, rejected: 2, rejections: [{ reason: expect.stringContaining('carries updatedAt') }, { reason: expect.stringContaining('carries updatedAt') }] })
      const sameInstant = await (await feed(signFeed({ schema: 'cairn.app_state_feed.v1', records: [{ ...record, data: { v: 3 }, updatedAt: '2026-06-01T00:00:00.000Z' }] }, 'shop-1'))).json()
      expect(sameInstant).toMatchObject({ accepted: 0, rejections: [{ reason: expect.stringContaining('not newer') }] })
      expect(await logSize()).toBe(leaves)
    })

    it('checks a signed feed\'s freshness in the OPTIONS dry run without using it up', async () => {
      const body = signFeed({ schema: 'cairn.app_state_feed.v1', records: [{ id: 'dry-signed', sourceUrl: 'https://partner.example/dry', schema: 's', data: {}, updatedAt: '2026-06-01T00:00:00.000Z' }] }, 'shop-1')
      expect(await (await feed(body, bearer, 'OPTIONS')).json()).toMatchObject({ ok: true, accepted: 1 })
      expect(await (await feed(body)).json()).toMatchObject({ ok: true, accepted: 1 })
      expect((await feed(body, bearer, 'OPTIONS')).status).toBe(409)
    })

    it('guards the feed with the cairn:record scope and refuses unknown feed schemas', async () => {
      const body = { schema: 'cairn.app_state_feed.v1', records: [] }
      expect((await post('/api/public-proof/registry/feed', body)).status).toBe(401)
      expect((await feed(body, weakBearer)).status).toBe(403)
      expect((await feed({ ...body, schema: 'other.v9' })).status).toBe(400)
      expect((await feed({ ...body, records: Array.from({ length: 101 }, (_, i) => ({ id: `r${i}`, sourceUrl: 'https://a.example/', schema: 's', data: {} })) })).status).toBe(400)
    })

    it('answers OPTIONS on the feed as a dry run that writes nothing', async () => {
      const leaves = await logSize()
      const body = { schema: 'cairn.app_state_feed.v1', records: [{ id: 'dry-1', sourceUrl: 'https://dry.example/', schema: 's', data: {} }] }
      const dry = await (await feed(body, bearer, 'OPTIONS')).json()
      expect(dry).toMatchObject({ ok: true, accepted: 1, records: [{ sourceUrl: 'https://dry.example/' }] })
      expect(await logSize()).toBe(leaves)
      expect(await (await call(`/api/public-proof/by-url?url=${encodeURIComponent('https://dry.example/')}`)).json()).toEqual({ ok: true, record: null })
    })

    if (mode === 'in-process') {
      it('answers the same through typed in-process calls', async () => {
        const observed = await cairn.call('observePublicProof', { body: { url: 'https://typed.example/x' } })
        expect(observed).toMatchObject({ _tag: 'Right', right: { kind: 'json', body: { ok: true, created: true } } })
        const byUrl = await cairn.call('getPublicProofByUrl', { query: { url: 'https://typed.example/x' } })
        expect(byUrl).toMatchObject({ _tag: 'Right', right: { body: { record: { sourceUrl: 'https://typed.example/x' } } } })
        const id = (byUrl as { right: { body: { record: { id: string } } } }).right.body.record.id
        expect(await cairn.call('getPublicProof', { params: { id } })).toMatchObject({ _tag: 'Right' })
        expect(await cairn.call('listPublicProofsByNamespace', { params: { namespace: 'typed.example' } })).toMatchObject({ _tag: 'Right', right: { body: { records: [{ id }] } } })
        expect(await cairn.call('listPublicProofsByCreator', { params: { externalCreatorId: 'nobody' } })).toMatchObject({ _tag: 'Right', right: { body: { records: [] } } })
        const credentials = { bearerToken: bearer }
        const body = { schema: 'cairn.app_state_feed.v1', records: [{ id: 'typed-1', sourceUrl: 'https://typed.example/y', schema: 's', data: {} }] }
        expect(await cairn.call('optionsRegistryFeed', { body, credentials })).toMatchObject({ _tag: 'Right', right: { body: { accepted: 1 } } })
        expect(await cairn.call('publishRegistryFeed', { body, credentials })).toMatchObject({ _tag: 'Right', right: { body: { accepted: 1 } } })
        expect(await cairn.call('observePublicProof', { body: { url: 'gopher://typed.example/' } })).toMatchObject({ _tag: 'Left', left: { _tag: 'InvalidInput' } })
      })
    }
  })
}
