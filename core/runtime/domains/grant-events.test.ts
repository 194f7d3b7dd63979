/**
 * Private additions and access grants written by staged execution: a member's private payload,
 * committed to by its event, is stored out of the chain; a `cairn.access-grants` event grants a
 * viewer (its head is the grant's head), and a later one revokes it. The viewer opens exactly the
 * granted payloads with its access key; after revocation the same request answers the reason-free
 * failure. Malformed events, unknown or taken grant keys, a viewer with no published source and a
 * payload its event does not commit to are refused as `plan-mismatch`, writing nothing; a Store
 * fault at any call of such an execute leaves nothing half written.
 */
import { randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../../adapters/memory/index.js'
import { InjectedFaultError, withFaults, type StoreMethod } from '../../../conformance/fault-injection.js'
import { accessKeyPair } from '../../../hosts/http/domains-test-support.js'
import { bearerOf, callRuntime, draftExecution, membersAtCurrentHeads } from '../../../hosts/http/execution-test-support.js'
import {
  execute as executeAs, GRANT_SCOPES, grantEvent, headOfEvent, personOf, planned as plannedBy, privateNote as noteOf, privateReadBody, publishSource, readPrivate as readPrivateAs,
  wireOf, type ExecutionWire as Wire, type Person, type PrivateWire, type Spec,
} from '../../../hosts/http/grant-test-support.js'
import { APP, createRuntimeTestWorld, type IdentityHolder, type RuntimeTestWorld } from '../../../hosts/http/runtime-test-support.js'
import { toBase64Url } from '../../encoding/base64url.js'
import { decryptPrivateAddition, type EncryptedAddition } from '../decrypt-private-addition.js'
import { grantKeyOf } from './access-grants.js'
import { parseGrantEvent } from './grant-events.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')

let runtime: RuntimeTestWorld
let person: Person
let ada: IdentityHolder
let token: string
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  person = await personOf(runtime, 'ada')
  ada = person.holder
  token = person.token
})

const artifacts = () => person.artifacts
const session = () => person.session
const publishAdaSource = () => publishSource(runtime, person)
const planned = (key: string, specs: readonly Spec[]) => plannedBy(runtime, person, key, specs)
const execute = (body: unknown) => executeAs(runtime, person, body)
const commit = async (key: string, specs: readonly Spec[]) => execute(await planned(key, specs))

/** A `grant` payload (or `private`) written, and so owned, by `writer` (ada unless given, acting under ada's capability). */
function privateNote(participantId: string, text: string, visibility: 'private' | 'grant' = 'grant', writer?: IdentityHolder): Spec {
  return { ...noteOf(participantId, text, (writer ?? ada).userId, visibility), ...(writer ? { actor: writer } : {}) }
}

const readPrivate = (handle: string, grantHead: string): Promise<PrivateWire> => readPrivateAs(runtime, person, handle, grantHead)

describe('private additions and access grants through staged execution', () => {
  it('a grant event grants the viewer the namespace\'s payloads, which it opens; a revoke event ends it', async () => {
    await publishAdaSource()
    const key = await accessKeyPair()
    const handle = toBase64Url(randomBytes(32))
    const grant = { grant: { accessGrantKey: grantKeyOf(handle), viewerSubjectId: ada.userId, namespaces: ['secret'], accessKeyJwk: key.publicJwk } }
    const grace = await runtime.identityHolder('grace')
    expect((await commit('k1', [privateNote('note-1', 'for the grant holders'), privateNote('note-2', 'grace only', 'private', grace), grantEvent('grant-1', grant)])).status).toBe('committed')

    const grantHead = await headOfEvent(runtime, token, grant)
    const wire = await readPrivate(handle, grantHead)
    if (wire.status !== 'succeeded') throw new Error('expected the private additions')
    expect(wire.additions.map((a) => a.additionKind)).toEqual(['public', 'encrypted', 'public'])
    const expectation = { applicationId: APP, domainId: 'notes', viewerSubjectId: ada.userId, viewerSubjectHead: wire.viewerSubjectHead, grantHead, accessKeyHead: key.accessKeyHead }
    const opened = await decryptPrivateAddition(wire.additions[1] as EncryptedAddition, expectation, key.privateKey)
    expect(opened.ok && new TextDecoder().decode(opened.payload)).toBe('for the grant holders')
    expect(JSON.stringify(wire)).not.toContain(toBase64Url(new TextEncoder().encode('grace only')))
    expect(wire).toMatchObject({ grantHead, accessGrantSourceArtifact: { artifactSha256: artifacts()[1]!.artifactSha256 }, viewerSubjectSourceArtifact: { artifactSha256: artifacts()[0]!.artifactSha256 } })

    expect((await commit('k2', [grantEvent('grant-1', { revoke: { accessGrantKey: grantKeyOf(handle) } })])).status).toBe('committed')
    expect(await readPrivate(handle, grantHead)).toEqual({ schema: 'cairn.v124.private_domain_additions_failure_wire', status: 'failed' })
  })

  it('refuses as plan-mismatch, writing nothing: malformed events, unknown or taken grant keys, a viewer with no published source, payloads not committed to', async () => {
    const key = await accessKeyPair()
    const grantFor = (handle: string, viewerSubjectId = ada.userId) => ({ grant: { accessGrantKey: grantKeyOf(handle), viewerSubjectId, namespaces: ['secret'], accessKeyJwk: key.publicJwk } })
    const note = privateNote('note-1', 'text')
    const cases: [string, Spec[]][] = [
      ['no published source', [grantEvent('g', grantFor('h1'))]],
      ['malformed', [grantEvent('g', { grant: { accessGrantKey: 'nope' } })]],
      ['revoke of nothing', [grantEvent('g', { revoke: { accessGrantKey: grantKeyOf('never') } })]],
      ['two changes of one grant', [grantEvent('g', grantFor('h2')), grantEvent('h', { revoke: { accessGrantKey: grantKeyOf('h2') } })]],
      ['payload not committed to', [{ ...note, privatePayload: { ...note.privatePayload!, payloadB64u: toBase64Url(new TextEncoder().encode('other')) } }]],
      ['short salt', [{ ...note, privatePayload: { ...note.privatePayload!, saltB64u: 'AAAA' } }]],
    ]
    const refuse = async (name: string, specs: Spec[]) => {
      const body = await planned(`k-${name.replaceAll(' ', '-')}`, specs)
      const before = await runtime.snapshot()
      expect(await execute(body), name).toMatchObject({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'plan-mismatch', writes: 0 })
      expect(await runtime.snapshot(), name).toBe(before)
    }
    for (const [name, specs] of cases) await refuse(name, specs)
    await publishAdaSource()
    expect((await commit('k-first', [grantEvent('g', grantFor('h3'))])).status).toBe('committed')
    await refuse('taken', [grantEvent('g', grantFor('h3'))])
  })

  it('a Store fault at any call of a granting execute leaves nothing half written, and the retry commits', async () => {
    await publishAdaSource()
    const key = await accessKeyPair()
    const counter = withFaults(runtime.deps.store, [])
    const clean = await planned('k0', [privateNote('n0', 'x'), grantEvent('g0', { grant: { accessGrantKey: grantKeyOf('h0'), viewerSubjectId: ada.userId, namespaces: ['secret'], accessKeyJwk: key.publicJwk } })])
    const principal = bearerOf(APP, ada, GRANT_SCOPES)
    const answer = await callRuntime({ ...runtime.deps, store: counter }, 'executeExecution', principal, { body: clean })
    expect(answer.ok && answer.wire.status).toBe('committed')
    let round = 0
    for (const method of ['get', 'getByUnique', 'query', 'commit', 'streamHead', 'readStream'] as StoreMethod[]) {
      for (let call = 1; call <= counter.callsOf(method); call++) {
        for (const when of ['before', 'after'] as const) {
          round += 1
          const body = await planned(`k${round}`, [privateNote(`n${round}`, 'x'), grantEvent(`g${round}`, { grant: { accessGrantKey: grantKeyOf(`h${round}`), viewerSubjectId: ada.userId, namespaces: ['secret'], accessKeyJwk: key.publicJwk } })])
          const before = await runtime.snapshot()
          const attempt = await callRuntime({ ...runtime.deps, store: withFaults(runtime.deps.store, [{ method, call, when }]) }, 'executeExecution', principal, { body }).catch((error: unknown) => error)
          if (attempt instanceof Error) expect(attempt).toBeInstanceOf(InjectedFaultError)
          const afterFault = await runtime.snapshot()
          expect(wireOf<Wire>(await runtime.call('executeExecution', { body, token })).status, `${method} #${call} ${when}`).toBe('committed')
          // All or nothing: the fault left the state before, or the whole commit (a retry then writes nothing more).
          if (afterFault !== before) expect(await runtime.snapshot(), `${method} #${call} ${when}`).toBe(afterFault)
        }
      }
    }
    expect(round).toBeGreaterThan(4)
  }, 120_000)

  it('works over HTTP: a private payload and a grant staged and executed through the h3 host, then read by the viewer', async () => {
    await publishAdaSource()
    const key = await accessKeyPair()
    const handle = toBase64Url(randomBytes(32))
    const grant = { grant: { accessGrantKey: grantKeyOf(handle), viewerSubjectId: ada.userId, namespaces: ['secret'], accessKeyJwk: key.publicJwk } }
    const specs = [grantEvent('g', grant), privateNote('n', 'over the wire')]
    const atHeads = await membersAtCurrentHeads({ deps: runtime.deps, owner: ada, pool: artifacts() }, ['g', 'n'])
    const draft = draftExecution(runtime.deps, { applicationId: APP, semanticIdempotencyKey: 'http-1', members: atHeads.map((member, i) => ({ ...member, ...specs[i] })) })
    const staged = await runtime.http('POST', '/api/sdk/v1/execution/stage', { body: { applicationId: APP, plan: draft.plan }, token })
    expect(staged.status).toBe(200)
    const handleWire = ((await staged.json()) as { wire: unknown }).wire
    const executed = await runtime.http('POST', '/api/sdk/v1/execution/execute', { body: { applicationId: APP, handle: handleWire, authoritySession: session(), transitionSet: draft.transitionSet }, token })
    expect(((await executed.json()) as { wire: Wire }).wire.status).toBe('committed')
    const body = await privateReadBody(runtime, person, handle, await headOfEvent(runtime, token, grant))
    const read = await runtime.http('POST', '/api/sdk/v1/domains/verified-private-additions', { body, token })
    const wire = ((await read.json()) as { wire: PrivateWire }).wire
    if (wire.status !== 'succeeded') throw new Error('expected the private additions')
    const expectation = { applicationId: APP, domainId: 'notes', viewerSubjectId: ada.userId, viewerSubjectHead: wire.viewerSubjectHead, grantHead: body.expectedGrantHead, accessKeyHead: key.accessKeyHead }
    const opened = await decryptPrivateAddition(wire.additions.find((a) => a.additionKind === 'encrypted') as EncryptedAddition, expectation, key.privateKey)
    expect(opened.ok && new TextDecoder().decode(opened.payload)).toBe('over the wire')
    // A privatePayload of the wrong shape is a 400 before anything is staged.
    const bad = structuredClone(draft.transitionSet) as unknown as { members: { planning: { privatePayload?: unknown } }[] }
    bad.members[1]!.planning.privatePayload = { visibility: 'everyone' }
    expect((await runtime.http('POST', '/api/sdk/v1/execution/execute', { body: { applicationId: APP, handle: handleWire, authoritySession: session(), transitionSet: bad }, token })).status).toBe(400)
  })

  it('parses grant and revoke events, naming what is wrong (pure)', () => {
    const jwk = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }
    const key = 'a'.repeat(64)
    expect(parseGrantEvent({ grant: { accessGrantKey: key, viewerSubjectId: 'sub_bob', namespaces: ['b', 'a', 'a'], accessKeyJwk: jwk } })).toEqual({ kind: 'grant', accessGrantKey: key, viewerSubjectId: 'sub_bob', namespaces: ['a', 'b'], accessKeyJwk: jwk })
    expect(parseGrantEvent({ revoke: { accessGrantKey: key } })).toEqual({ kind: 'revoke', accessGrantKey: key })
    expect(parseGrantEvent({ revoke: { accessGrantKey: key }, grant: {} })).toMatch(/grant: … } or { revoke/)
    expect(parseGrantEvent({ grant: { accessGrantKey: key, viewerSubjectId: 'sub_bob', namespaces: [], accessKeyJwk: jwk } })).toMatch(/namespaces/)
    expect(parseGrantEvent({ grant: { accessGrantKey: key, viewerSubjectId: 'sub_bob', namespaces: ['a'], accessKeyJwk: { ...jwk, d: 'secret' } } })).toMatch(/public JWK/)
    expect(parseGrantEvent({ grant: { accessGrantKey: key, viewerSubjectId: 'sub_bob', namespaces: ['a'], accessKeyJwk: jwk, extra: 1 } })).toMatch(/has only/)
  })
})
