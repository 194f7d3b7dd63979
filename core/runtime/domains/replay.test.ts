/**
 * Verified replay, additions and checkpoints through the full pipeline: signed envelopes the client
 * verifier accepts, exact heads or refusals (and refusals read only), bounded resumable pages, heads
 * a client recomputes offline, and immutable checkpoints.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { components } from '../../contract/components.js'
import { withFaults } from '../../../conformance/fault-injection.js'
import { bodyOf } from '../../../hosts/http/oidc-test-support.js'
import { FixedClock } from '../../../adapters/memory/index.js'
import { chainHead, entryDigestOf } from '../../digest/chain.js'
import { sha256Hex } from '../../digest/sha256.js'
import { fromBase64Url } from '../../encoding/base64url.js'
import type { ComponentType } from '../../contract/components.js'
import type { UseCase } from '../../usecases/use-case.js'
import { verifyRuntimeEnvelope } from '../verify-envelope.js'
import { appendDomainAdditions, type AppendResult } from './append-additions.js'
import { chainedValueOf, DOMAIN_REDUCER_DIGEST, DOMAIN_REGISTRY_DIGEST, genesisDomainHead, MAX_REPLAY_ADDITIONS, MAX_REPLAY_EVENT_BYTES } from './domain-records.js'
import { additions, APP, bytes, createDomainWorld, DOMAIN, errorOf, READ, statusOf, unwrap, type DomainWorld } from '../../../hosts/http/domains-test-support.js'
import { domainUseCases } from './index.js'

type Replay = ComponentType<'V124DomainReplayProjection'>
type Checkpoint = ComponentType<'V124DomainCheckpointProjection'>

const T0 = Date.parse('2026-06-25T00:00:00Z')
const PATHS = { replayDomain: '/api/sdk/v1/domains/verified-replay', listDomainAdditions: '/api/sdk/v1/domains/verified-additions', checkpointDomain: '/api/sdk/v1/domains/verified-checkpoint' } as const

let runtime: DomainWorld
beforeEach(async () => { runtime = await createDomainWorld({ clock: new FixedClock(T0) }) })

const replayBody = (afterHead: string | null, overrides: Record<string, unknown> = {}) => ({
  applicationId: APP, domainId: DOMAIN.domainId, afterHead, expectedRegistryDigest: DOMAIN_REGISTRY_DIGEST, expectedReducerDigest: DOMAIN_REDUCER_DIGEST, ...overrides,
})

/** Calls an operation and verifies its envelope as a client would; answers the wire. */
async function verified<W>(operationId: keyof typeof PATHS, body: Record<string, unknown>): Promise<W> {
  const reply = await runtime.call(operationId, { body, token: runtime.token })
  const decoded: E.Either<unknown, unknown> = operationId === 'checkpointDomain' ? components.V124SignedDomainCheckpointEnvelope.decode(bodyOf(reply)) : components.V124SignedDomainReplayEnvelope.decode(bodyOf(reply))
  expect(E.isRight(decoded)).toBe(true)
  const verdict = await verifyRuntimeEnvelope<W>(bodyOf(reply), { method: 'POST', path: PATHS[operationId], body, applicationId: APP, audience: APP, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })
  if (!verdict.ok) throw new Error(verdict.errors.join('; '))
  return verdict.wire
}

/** Every page from genesis, following `partial` with afterHead = head. */
async function replayAll(operationId: 'replayDomain' | 'listDomainAdditions' = 'replayDomain', from: string | null = null): Promise<Replay[]> {
  const pages: Replay[] = []
  let afterHead: string | null = from
  for (;;) {
    const page: Replay = await verified<Replay>(operationId, replayBody(afterHead))
    pages.push(page)
    if (page.status === 'complete') return pages
    afterHead = page.head
  }
}

/** What a client checks offline: each addition's event digest, and the chain from `afterHead`. */
function chainHolds(page: Replay): boolean {
  let head = page.afterHead
  for (const addition of page.additions) {
    if (sha256Hex(fromBase64Url(addition.exactEventBytesB64u)!) !== addition.eventDigest) return false
    if (addition.priorHead !== head || chainHead(head, entryDigestOf(chainedValueOf({ schema: 'cairn.v124.domain_addition', ...addition }))) !== addition.newHead) return false
    head = addition.newHead
  }
  return head === page.head
}

/** A read-only use case run on a store that counts commits. */
async function commitsOf(operationId: keyof typeof domainUseCases, body: unknown): Promise<number> {
  const store = withFaults(runtime.deps.store, [])
  const principal = { kind: 'bearer', actsAsClient: true, clientId: APP, subject: 'usr_x', scopes: READ, businessTier: false } as never
  await (domainUseCases[operationId] as unknown as UseCase)({ params: {}, query: {}, body, principal }, { ...runtime.deps, store })
  return store.callsOf('commit')
}

describe('verified replay', () => {
  it('answers the empty domain at genesis, complete, with the empty namespace index', async () => {
    const wire = await verified<Replay>('replayDomain', replayBody(null))
    expect(wire).toMatchObject({ schema: 'cairn.v124.domain_replay_projection', status: 'complete', afterHead: null, head: null, cursor: null, additions: [], registryDigest: DOMAIN_REGISTRY_DIGEST, reducerDigest: DOMAIN_REDUCER_DIGEST })
    expect(wire.namespace).toMatchObject({ name: 'namespaces', head: genesisDomainHead(DOMAIN) })
    expect(Buffer.from(fromBase64Url(wire.namespace.exactBytesB64u)!).toString()).toBe('{"namespaces":{}}')
  })

  it('answers exactly the additions after an exact head, with heads a client recomputes', async () => {
    const first = await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, additions(3)))
    const second = await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, first.head, [{ appendId: 'b0', namespace: 'tags', eventBytes: bytes('tag'), causalParents: [first.additions[0]!.eventDigest] }]))
    const all = await verified<Replay>('replayDomain', replayBody(null))
    expect(all.additions.map((a) => a.appendId)).toEqual(['a0', 'a1', 'a2', 'b0'])
    expect(all).toMatchObject({ status: 'complete', head: second.head, cursor: '3', priorHead: first.head })
    expect(chainHolds(all)).toBe(true)
    const after = await verified<Replay>('replayDomain', replayBody(first.additions[1]!.newHead))
    expect(after.additions.map((a) => a.appendId)).toEqual(['a2', 'b0'])
    expect(after).toMatchObject({ afterHead: first.additions[1]!.newHead, afterCursor: '1', cursor: '3', head: second.head })
    expect(chainHolds(after)).toBe(true)
    const index = JSON.parse(Buffer.from(fromBase64Url(after.namespace.exactBytesB64u)!).toString()) as { namespaces: Record<string, { digest: string }> }
    expect(Object.keys(index.namespaces)).toEqual(['notes', 'tags'])
    expect(index.namespaces.tags!.digest).toBe(sha256Hex(bytes('tag')))
    expect(after.namespace).toMatchObject({ head: second.head, digest: sha256Hex(fromBase64Url(after.namespace.exactBytesB64u)!) })
    const atHead = await verified<Replay>('replayDomain', replayBody(second.head))
    expect(atHead).toMatchObject({ status: 'complete', additions: [], head: second.head, afterHead: second.head, priorHead: first.head, cursor: '3' })
  })

  it('listDomainAdditions answers the same projection, bound to its own path', async () => {
    await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, additions(2)))
    const replay = await verified<Replay>('replayDomain', replayBody(null))
    const listed = await verified<Replay>('listDomainAdditions', replayBody(null))
    expect(listed).toEqual(replay)
    const reply = await runtime.call('listDomainAdditions', { body: replayBody(null), token: runtime.token })
    const verdict = await verifyRuntimeEnvelope(bodyOf(reply), { method: 'POST', path: PATHS.replayDomain, body: replayBody(null), applicationId: APP, audience: APP, domain: 'cairn.test' }, { jwks: await runtime.jwks(), now: T0 })
    expect(verdict.ok).toBe(false)
  })

  it('pages are bounded by count and resumable: partial, then complete', async () => {
    let head: string | null = null
    for (let batch = 0; batch < 3; batch++) head = (await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, head, additions(50, `b${batch}-`)))).head
    const pages = await replayAll()
    expect(pages.map((p) => [p.status, p.additions.length])).toEqual([['partial', MAX_REPLAY_ADDITIONS], ['complete', 50]])
    expect(pages[1]!.afterHead).toBe(pages[0]!.head)
    expect(pages.every(chainHolds)).toBe(true)
    expect(pages[1]!.head).toBe(head)
  })

  it('pages are bounded by event bytes (always at least one addition)', async () => {
    const big = Array.from({ length: 10 }, (_, i) => ({ appendId: `big${i}`, namespace: 'blobs', eventBytes: new Uint8Array(64 * 1024).fill(i) }))
    await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, big))
    const pages = await replayAll('listDomainAdditions')
    expect(pages[0]!.additions.length).toBe(MAX_REPLAY_EVENT_BYTES / (64 * 1024))
    expect(pages.flatMap((p) => p.additions).length).toBe(10)
  })

  it('replay in pages equals the appended chain at once, from genesis or any head, whatever the batches (property)', async () => {
    const size = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 64 }) }, { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 65_536 }) })
    await fc.assert(fc.asyncProperty(
      fc.array(fc.array(fc.record({ namespace: fc.constantFrom('a', 'b', 'c'), size }), { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 5 }),
      fc.nat(),
      async (batches, cut) => {
        runtime = await createDomainWorld({ clock: new FixedClock(T0) })
        let head: string | null = null
        let n = 0
        const appended: AppendResult['additions'][number][] = []
        for (const batch of batches) {
          const result: AppendResult = await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, head, batch.map((a) => ({ appendId: `x${n}`, namespace: a.namespace, eventBytes: new Uint8Array(a.size).fill(n++ % 256) }))))
          appended.push(...result.additions)
          head = result.head
        }
        const pages = await replayAll('replayDomain')
        expect(pages.flatMap((p) => p.additions)).toEqual(appended)
        expect(pages.at(-1)!.head).toBe(head)
        for (const page of pages) {
          expect(chainHolds(page)).toBe(true)
          expect(page.additions.length).toBeLessThanOrEqual(MAX_REPLAY_ADDITIONS)
          const bytesOf = page.additions.reduce((sum, a) => sum + fromBase64Url(a.exactEventBytesB64u)!.length, 0)
          expect(page.additions.length === 1 || bytesOf <= MAX_REPLAY_EVENT_BYTES).toBe(true)
        }
        // Resuming from any head answers exactly the rest, and ends in the same namespace state.
        const start = appended[cut % appended.length]!
        const rest = await replayAll('listDomainAdditions', start.newHead)
        expect(rest.flatMap((p) => p.additions)).toEqual(appended.slice(start.sequence + 1))
        expect(rest.at(-1)!.namespace).toEqual(pages.at(-1)!.namespace)
      },
    ), { numRuns: 12 })
  })

  const refusals: [string, () => Record<string, unknown>, number, RegExp][] = [
    ['a head the domain never had', () => replayBody('e'.repeat(64)), 409, /afterHead is not a head/],
    ['another registry digest', () => replayBody(null, { expectedRegistryDigest: 'a'.repeat(64) }), 409, /expectedRegistryDigest/],
    ['another reducer digest', () => replayBody(null, { expectedReducerDigest: 'b'.repeat(64) }), 409, /expectedReducerDigest/],
    ['an unknown domain', () => replayBody(null, { domainId: 'nope' }), 404, /No such domain/],
    ['another application', () => replayBody(null, { applicationId: 'org.other.app' }), 403, /applicationId/],
  ]
  it.each(refusals)('refuses %s, never answering at another head, and writes nothing', async (_name, makeBody, status, reason) => {
    await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, additions(2)))
    for (const operationId of ['replayDomain', 'listDomainAdditions'] as const) {
      const reply = await runtime.call(operationId, { body: makeBody(), token: runtime.token })
      expect(statusOf(reply)).toBe(status)
      expect(errorOf(reply)).toMatch(reason)
      expect(await commitsOf(operationId, makeBody())).toBe(0)
    }
  })

  it('refuses a head of another domain of the same application', async () => {
    const other = { applicationId: APP, domainId: 'other' }
    const { createDomain } = await import('./append-additions.js')
    const { artifact } = await import('../../../hosts/http/domains-test-support.js')
    await unwrap(createDomain(runtime.deps, other, artifact('other'), 'sub_ada'))
    const otherHead = (await unwrap(appendDomainAdditions(runtime.deps, other, null, additions(1)))).head
    const reply = await runtime.call('replayDomain', { body: replayBody(otherHead), token: runtime.token })
    expect(statusOf(reply)).toBe(409)
  })

  it('needs cairn:runtime.read', async () => {
    const token = await runtime.tokenFor(['cairn:runtime.execute'])
    expect(statusOf(await runtime.call('replayDomain', { body: replayBody(null), token }))).toBe(403)
  })
})

describe('verified checkpoint', () => {
  it('is immutable: the same bytes through a head, however the domain grows', async () => {
    const first = await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, additions(3)))
    const body = { applicationId: APP, domainId: DOMAIN.domainId, throughHead: first.additions[1]!.newHead }
    const before = await verified<Checkpoint>('checkpointDomain', body)
    await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, first.head, additions(5, 'later', 'notes')))
    const after = await verified<Checkpoint>('checkpointDomain', body)
    expect(after).toEqual(before)
    expect(before).toMatchObject({ schema: 'cairn.v124.domain_checkpoint_projection', status: 'immutable', throughHead: first.additions[1]!.newHead, cursor: '1' })
    const statement = JSON.parse(Buffer.from(fromBase64Url(before.exactCheckpointBytesB64u)!).toString()) as Record<string, unknown>
    expect(sha256Hex(fromBase64Url(before.exactCheckpointBytesB64u)!)).toBe(before.checkpointDigest)
    expect(statement).toMatchObject({ schema: 'cairn.v124.domain_checkpoint', throughHead: body.throughHead, sequence: 1, registryDigest: DOMAIN_REGISTRY_DIGEST, reducerDigest: DOMAIN_REDUCER_DIGEST })
  })

  it('is bound to the head a verified replay answered: the same namespace projection', async () => {
    const appended = await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, additions(4)))
    const replay = await verified<Replay>('replayDomain', replayBody(null))
    const checkpoint = await verified<Checkpoint>('checkpointDomain', { applicationId: APP, domainId: DOMAIN.domainId, throughHead: replay.head })
    expect(checkpoint.namespace).toEqual(replay.namespace)
    expect(checkpoint.throughHead).toBe(appended.head)
  })

  it('refuses a head the domain never had, writing nothing', async () => {
    await unwrap(appendDomainAdditions(runtime.deps, DOMAIN, null, additions(1)))
    const body = { applicationId: APP, domainId: DOMAIN.domainId, throughHead: 'c'.repeat(64) }
    const reply = await runtime.call('checkpointDomain', { body, token: runtime.token })
    expect(statusOf(reply)).toBe(409)
    expect(await commitsOf('checkpointDomain', body)).toBe(0)
    expect(statusOf(await runtime.call('checkpointDomain', { body: { ...body, domainId: 'nope' }, token: runtime.token }))).toBe(404)
  })
})
