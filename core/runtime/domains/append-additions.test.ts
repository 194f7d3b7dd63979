/**
 * Writing domains: one atomic commit guarded by the head, refusals that write nothing, concurrent
 * appenders that serialise, and fault injection at every Store call of createDomain,
 * appendDomainAdditions and grantDomainAccess (nothing half written; the outcome is recoverable
 * from the domain's head, and a retry with the same expectations either wins or reports that the
 * first attempt applied). The read operations under faults fail or answer, and never write.
 */
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../../conformance/fault-injection.js'
import { memoryDeps } from '../../../hosts/http/describe-env.js'
import { verifyChain } from '../../digest/chain.js'
import type { Json } from '../../../ports/store.js'
import type { CoreDeps, UseCase } from '../../usecases/use-case.js'
import { grantDomainAccess, type GrantRecord } from './access-grants.js'
import { appendDomainAdditions, createDomain } from './append-additions.js'
import { additionKeyOf, domainCollections, domainKeyOf, domainStreamOf, RUNTIME_DOMAIN_ADDITIONS, RUNTIME_DOMAIN_GRANTS, RUNTIME_DOMAIN_PRIVATE, RUNTIME_DOMAINS, type DomainRecord } from './domain-records.js'
import { accessKeyPair, additions, APP, artifact, bytes, DOMAIN, unwrap } from '../../../hosts/http/domains-test-support.js'
import { domainUseCases } from './index.js'

const METHODS: readonly StoreMethod[] = ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream']

async function freshDeps(): Promise<CoreDeps> {
  const deps = memoryDeps()
  await deps.store.declare(domainCollections)
  return deps
}

async function domainOf(deps: CoreDeps): Promise<DomainRecord | undefined> {
  return (await deps.store.get<Json>(RUNTIME_DOMAINS, domainKeyOf(DOMAIN)))?.value as unknown as DomainRecord | undefined
}

/** Everything a domain holds agrees: record head = stream head, one addition document per entry, chain valid. */
async function consistent(deps: CoreDeps): Promise<number> {
  const record = await domainOf(deps)
  const stream = await deps.store.readStream(domainStreamOf(DOMAIN), { limit: 1000 })
  expect(verifyChain(null, stream.items)).toBe(true)
  expect(record?.head ?? null).toBe(stream.items.at(-1)?.head ?? null)
  expect(record?.sequence ?? -1).toBe(stream.items.length - 1)
  for (const [sequence, entry] of stream.items.entries()) {
    const doc = await deps.store.get<Json>(RUNTIME_DOMAIN_ADDITIONS, additionKeyOf(DOMAIN, sequence))
    expect((doc?.value as { newHead?: string } | undefined)?.newHead).toBe(entry.head)
  }
  expect(await deps.store.get(RUNTIME_DOMAIN_ADDITIONS, additionKeyOf(DOMAIN, stream.items.length))).toBeUndefined()
  return stream.items.length
}

describe('appendDomainAdditions', () => {
  it('appends a batch in one commit; the Store chains exactly the heads it answers', async () => {
    const deps = await freshDeps()
    await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
    const store = withFaults(deps.store, [])
    const result = await unwrap(appendDomainAdditions({ store }, DOMAIN, null, [...additions(3), { appendId: 'p', namespace: 'secret', eventBytes: bytes('public'), private: { visibility: 'grant', ownerSubjectId: 'sub_ada', payload: bytes('hidden') } }]))
    expect(store.callsOf('commit')).toBe(1)
    const stream = await deps.store.readStream(domainStreamOf(DOMAIN))
    expect(stream.items.map((e) => e.head)).toEqual(result.additions.map((a) => a.newHead))
    expect(result).toMatchObject({ head: result.additions[3]!.newHead, sequence: 3 })
    expect(await consistent(deps)).toBe(4)
    expect(await deps.store.get(RUNTIME_DOMAIN_PRIVATE, additionKeyOf(DOMAIN, 3))).toBeDefined()
    expect(JSON.stringify(stream.items)).not.toContain('hidden')
  })

  const refusals: [string, (head: string) => Parameters<typeof appendDomainAdditions>, string][] = [
    ['a stale expected head', () => [undefined as never, DOMAIN, null, additions(1, 'z')], 'Conflict'],
    ['an appendId already appended', (head) => [undefined as never, DOMAIN, head, additions(1)], 'Conflict'],
    ['an appendId twice in a batch', (head) => [undefined as never, DOMAIN, head, [...additions(1, 'z'), ...additions(1, 'z')]], 'InvalidInput'],
    ['an empty batch', (head) => [undefined as never, DOMAIN, head, []], 'InvalidInput'],
    ['empty event bytes', (head) => [undefined as never, DOMAIN, head, [{ appendId: 'z', namespace: 'n', eventBytes: new Uint8Array() }]], 'InvalidInput'],
    ['a namespace that is not a name', (head) => [undefined as never, DOMAIN, head, [{ appendId: 'z', namespace: 'Bad Name', eventBytes: bytes('x') }]], 'InvalidInput'],
    ['a causal parent that is no event of the domain', (head) => [undefined as never, DOMAIN, head, [{ appendId: 'z', namespace: 'n', eventBytes: bytes('x'), causalParents: ['f'.repeat(64)] }]], 'Unprocessable'],
    ['an unknown domain', (head) => [undefined as never, { applicationId: APP, domainId: 'nope' }, head, additions(1, 'z')], 'NotFound'],
  ]
  it.each(refusals)('refuses %s and writes nothing', async (_name, args, tag) => {
    const deps = await freshDeps()
    await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
    const { head } = await unwrap(appendDomainAdditions(deps, DOMAIN, null, additions(2)))
    const store = withFaults(deps.store, [])
    const [, domain, expectedHead, batch] = args(head)
    const result = await appendDomainAdditions({ store }, domain, expectedHead, batch)
    expect(E.isLeft(result) && result.left._tag).toBe(tag)
    expect(store.callsOf('commit')).toBe(0)
    expect(await consistent(deps)).toBe(2)
  })

  it('accepts causal parents from the domain and from earlier in the batch', async () => {
    const deps = await freshDeps()
    await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
    const first = await unwrap(appendDomainAdditions(deps, DOMAIN, null, additions(1)))
    const root = first.additions[0]!.eventDigest
    const second = await unwrap(appendDomainAdditions(deps, DOMAIN, first.head, [
      { appendId: 'c1', namespace: 'n', eventBytes: bytes('c1'), causalParents: [root] },
      { appendId: 'c2', namespace: 'n', eventBytes: bytes('c2'), causalParents: [root, (await import('../../digest/sha256.js')).sha256Hex(bytes('c1'))] },
    ]))
    expect(second.additions[1]!.causalParents.length).toBe(2)
  })

  it('serialises concurrent appenders on one head: exactly one wins, the other writes nothing', async () => {
    const deps = await freshDeps()
    await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
    const { head } = await unwrap(appendDomainAdditions(deps, DOMAIN, null, additions(1)))
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => appendDomainAdditions(deps, DOMAIN, head, additions(2, `w${i}-`))))
    expect(results.filter(E.isRight).length).toBe(1)
    expect(results.filter(E.isLeft).every((r) => E.isLeft(r) && r.left._tag === 'Conflict')).toBe(true)
    expect(await consistent(deps)).toBe(3)
  })

  it('createDomain is idempotent for the same source and owner and refuses another', async () => {
    const deps = await freshDeps()
    await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
    expect(E.isRight(await createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))).toBe(true)
    const other = await createDomain(deps, DOMAIN, artifact('other'), 'sub_ada')
    expect(E.isLeft(other) && other.left._tag).toBe('Conflict')
    const otherOwner = await createDomain(deps, DOMAIN, artifact('src'), 'sub_bob')
    expect(E.isLeft(otherOwner) && otherOwner.left._tag).toBe('Conflict')
    expect((await domainOf(deps))?.ownerSubjectId).toBe('sub_ada')
    const forged = await createDomain(deps, { applicationId: APP, domainId: 'forged' }, { ...artifact('x'), artifactSha256: 'a'.repeat(64) }, 'sub_ada')
    expect(E.isLeft(forged) && forged.left._tag).toBe('Unprocessable')
  })
})

describe('fault injection at every Store call', () => {
  /** A fault at `method` call `n`: throws or succeeds; afterwards the domain is whole, and a retry converges to exactly one batch. */
  for (const method of METHODS) {
    for (const when of ['before', 'after'] as const) {
      for (const call of [1, 2, 3]) {
        it(`append: ${method} #${call} fails ${when}`, async () => {
          const deps = await freshDeps()
          await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
          const { head } = await unwrap(appendDomainAdditions(deps, DOMAIN, null, additions(1)))
          const store = withFaults(deps.store, [{ method, call, when }])
          const batch = [...additions(2, 'f'), { appendId: 'fp', namespace: 'secret', eventBytes: bytes('p'), private: { visibility: 'private' as const, ownerSubjectId: 'sub', payload: bytes('s') } }]
          const first = await appendDomainAdditions({ store }, DOMAIN, head, batch).catch((error: unknown) => error)
          if (first instanceof Error) expect(first).toBeInstanceOf(InjectedFaultError)
          const count = await consistent(deps)
          expect([1, 4]).toContain(count)
          // Recovery: read the head; retry only if the batch is not in.
          const retry = await appendDomainAdditions(deps, DOMAIN, head, batch)
          if (count === 4) expect(E.isLeft(retry) && retry.left._tag).toBe('Conflict')
          else expect(E.isRight(retry)).toBe(true)
          expect(await consistent(deps)).toBe(4)
          expect(await deps.store.get(RUNTIME_DOMAIN_PRIVATE, additionKeyOf(DOMAIN, 3))).toBeDefined()
        })
      }
      it(`createDomain and grantDomainAccess: ${method} #1 fails ${when}`, async () => {
        const deps = await freshDeps()
        const store = withFaults(deps.store, [{ method, call: 1, when }])
        const created = await createDomain({ ...deps, store }, DOMAIN, artifact('src'), 'sub_ada').catch((error: unknown) => error)
        if (created instanceof Error) expect(created).toBeInstanceOf(InjectedFaultError)
        expect(E.isRight(await createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))).toBe(true)
        expect((await domainOf(deps))?.head).toBeNull()
        const key = await accessKeyPair()
        const grantStore = withFaults(deps.store, [{ method, call: 1, when }])
        const input = { issuerSubjectId: 'sub_ada', viewerSubjectId: 'sub_bob', namespaces: ['notes'], accessKeyJwk: key.publicJwk, accessGrantSourceArtifact: artifact('g'), viewerSubjectSourceArtifact: artifact('s') }
        const granted = await grantDomainAccess({ ...deps, store: grantStore }, DOMAIN, input).catch((error: unknown) => error)
        if (granted instanceof Error) expect(granted).toBeInstanceOf(InjectedFaultError)
        const grants = await deps.store.query<Json>(RUNTIME_DOMAIN_GRANTS, { index: 'byDomain', equals: [domainKeyOf(DOMAIN)] })
        // A grant is whole or absent; an applied grant whose answer was lost is simply not used (its handle was never handed out).
        expect(grants.items.length).toBeLessThanOrEqual(1)
        for (const doc of grants.items) expect((doc.value as unknown as GrantRecord).viewerSubjectId).toBe('sub_bob')
      })
    }
  }

  const reads: [keyof typeof domainUseCases, Record<string, unknown>][] = [
    ['replayDomain', { applicationId: APP, domainId: DOMAIN.domainId, afterHead: null, expectedRegistryDigest: '', expectedReducerDigest: '' }],
    ['checkpointDomain', { applicationId: APP, domainId: DOMAIN.domainId, throughHead: '' }],
  ]
  it.each(reads)('%s under a fault at any read fails or answers, and never writes', async (operationId, template) => {
    const deps = await freshDeps()
    const record = await unwrap(createDomain(deps, DOMAIN, artifact('src'), 'sub_ada'))
    const { head } = await unwrap(appendDomainAdditions(deps, DOMAIN, null, additions(3)))
    const body = { ...template, ...('afterHead' in template ? { expectedRegistryDigest: record.registryDigest, expectedReducerDigest: record.reducerDigest } : { throughHead: head }) }
    const principal = { kind: 'bearer', actsAsClient: true, clientId: APP, subject: 'usr_x', scopes: ['cairn:runtime.read'], businessTier: false } as never
    for (const method of METHODS) {
      for (const call of [1, 2, 3]) {
        const store = withFaults(deps.store, [{ method, call, when: 'before' }])
        const reply = await (domainUseCases[operationId] as unknown as UseCase)({ params: {}, query: {}, body, principal }, { ...deps, store }).catch((error: unknown) => error)
        if (reply instanceof Error) expect(reply).toBeInstanceOf(InjectedFaultError)
        else expect(E.isRight(reply as E.Either<unknown, unknown>)).toBe(true)
        expect(store.callsOf('commit')).toBe(0)
      }
    }
    expect(await consistent(deps)).toBe(3)
  })
})
