/**
 * Grants open only what the grantor owns. Domain `notes` belongs to ada (her plan created it, with
 * her candidate as its source artifact). grace, another user of the same application with her own
 * token and session, attacks: she grants herself ada's namespace `secret`, revokes the grant ada
 * gave carol (its key is in the public replay), and writes a payload claiming ada as its owner.
 * Each is refused `capability-invalid` with the Store unchanged, and no payload of ada's is ever
 * encrypted to grace. A grant opens only payloads its issuer owns, and a revoke comes only from the
 * grant's issuer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../../adapters/memory/index.js'
import { accessKeyPair, artifact } from '../../../hosts/http/domains-test-support.js'
import {
  execute, grantEvent, grantFor, headOfEvent, personOf, planned, privateNote, privateReadBody, publishSource, readPrivate, type ExecutionWire, type Person, type PrivateWire,
} from '../../../hosts/http/grant-test-support.js'
import { APP, createRuntimeTestWorld, type RuntimeTestWorld } from '../../../hosts/http/runtime-test-support.js'
import { toBase64Url } from '../../encoding/base64url.js'
import { decryptPrivateAddition, type EncryptedAddition } from '../decrypt-private-addition.js'
import { grantDomainAccess, grantKeyOf } from './access-grants.js'
import { grantChangeWrites, parseGrantEvent, type GrantChange } from './grant-events.js'

const T0 = Date.parse('2026-06-25T00:00:00Z')
const FAILED: PrivateWire = { schema: 'cairn.v124.private_domain_additions_failure_wire', status: 'failed' }

let runtime: RuntimeTestWorld
let ada: Person
let grace: Person
let carol: Person
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  ada = await personOf(runtime, 'ada')
  grace = await personOf(runtime, 'grace')
  carol = await personOf(runtime, 'carol')
  for (const person of [ada, grace, carol]) await publishSource(runtime, person)
  // ada's plan creates the domain (so she owns it) and writes a `grant` payload in `secret`.
  expect((await execute(runtime, ada, await planned(runtime, ada, 'ada-1', [privateNote('ada-note', 'ada\'s secret', ada.holder.userId)]))).status).toBe('committed')
})

const encoded = (text: string) => toBase64Url(new TextEncoder().encode(text))

/** Stages and executes grace's plan, expecting it refused `capability-invalid` with the Store unchanged. */
async function refusedToGrace(key: string, specs: Parameters<typeof planned>[3]) {
  const body = await planned(runtime, grace, key, specs)
  const before = await runtime.snapshot()
  expect(await execute(runtime, grace, body)).toMatchObject({ schema: 'cairn.v124.execution_zero_write_failure', reasonCode: 'capability-invalid', writes: 0 })
  expect(await runtime.snapshot()).toBe(before)
}

describe('grants open only what the grantor owns', () => {
  it('grace cannot grant herself ada\'s namespace: refused, nothing written, and ada\'s payload is never encrypted to her', async () => {
    const key = await accessKeyPair()
    const stolen = grantFor(grace.holder.userId, key.publicJwk)
    await refusedToGrace('grace-grant', [grantEvent('grace-grant', stolen.event)])
    // Nor when the same plan also writes a payload of her own.
    await refusedToGrace('grace-grant-2', [privateNote('grace-note', 'mine', grace.holder.userId), grantEvent('grace-grant', grantFor(grace.holder.userId, key.publicJwk).event)])
    // The handle she drew opens nothing.
    expect(await readPrivate(runtime, grace, stolen.handle, 'a'.repeat(64))).toEqual(FAILED)
  })

  it('the same attack over HTTP through the h3 host is refused and writes nothing', async () => {
    const key = await accessKeyPair()
    const body = await planned(runtime, grace, 'grace-http', [grantEvent('grace-grant', grantFor(grace.holder.userId, key.publicJwk).event)])
    const before = await runtime.snapshot()
    const response = await runtime.http('POST', '/api/sdk/v1/execution/execute', { body, token: grace.token })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { wire: ExecutionWire }).wire).toMatchObject({ reasonCode: 'capability-invalid', writes: 0 })
    expect(await runtime.snapshot()).toBe(before)
  })

  it('grace cannot revoke the grant ada gave carol, though its key is in the public replay', async () => {
    const key = await accessKeyPair()
    const given = grantFor(carol.holder.userId, key.publicJwk)
    expect((await execute(runtime, ada, await planned(runtime, ada, 'ada-grant', [grantEvent('ada-grant', given.event)]))).status).toBe('committed')
    const grantHead = await headOfEvent(runtime, grace.token, given.event)
    await refusedToGrace('grace-revoke', [grantEvent('grace-revoke', { revoke: { accessGrantKey: given.accessGrantKey } })])
    expect((await readPrivate(runtime, carol, given.handle, grantHead)).status).toBe('succeeded')
  })

  it('grace cannot write a payload claiming ada as its owner: a payload belongs to its member\'s verified actor', async () => {
    await refusedToGrace('grace-claims', [privateNote('grace-note', 'forged', ada.holder.userId)])
    // Over HTTP too.
    const body = await planned(runtime, grace, 'grace-claims-http', [privateNote('grace-note', 'forged', ada.holder.userId)])
    const before = await runtime.snapshot()
    const response = await runtime.http('POST', '/api/sdk/v1/execution/execute', { body, token: grace.token })
    expect(((await response.json()) as { wire: ExecutionWire }).wire).toMatchObject({ reasonCode: 'capability-invalid', writes: 0 })
    expect(await runtime.snapshot()).toBe(before)
  })

  it('a grant opens only the payloads its issuer owns: carol, granted `secret` by ada, opens ada\'s payload and not grace\'s', async () => {
    // grace writes a `grant` payload of her own into ada's domain (writing is open; granting is not).
    expect((await execute(runtime, grace, await planned(runtime, grace, 'grace-1', [privateNote('grace-note', 'grace\'s secret', grace.holder.userId)]))).status).toBe('committed')
    const key = await accessKeyPair()
    const given = grantFor(carol.holder.userId, key.publicJwk)
    expect((await execute(runtime, ada, await planned(runtime, ada, 'ada-grant', [grantEvent('ada-grant', given.event)]))).status).toBe('committed')
    const grantHead = await headOfEvent(runtime, carol.token, given.event)
    const wire = await readPrivate(runtime, carol, given.handle, grantHead)
    if (wire.status !== 'succeeded') throw new Error('expected the private additions')
    expect(wire.additions.map((a) => a.additionKind)).toEqual(['encrypted', 'public', 'public'])
    const expectation = { applicationId: APP, domainId: 'notes', viewerSubjectId: carol.holder.userId, viewerSubjectHead: wire.viewerSubjectHead, grantHead, accessKeyHead: key.accessKeyHead }
    const opened = await decryptPrivateAddition(wire.additions[0] as EncryptedAddition, expectation, key.privateKey)
    expect(opened.ok && new TextDecoder().decode(opened.payload)).toBe('ada\'s secret')
    expect(JSON.stringify(wire)).not.toContain(encoded('grace\'s secret'))
  })

  it('a revoke comes only from the grant\'s issuer, even in the owner\'s domain', async () => {
    const key = await accessKeyPair()
    // An embedder grants carol in grace's name (grantDomainAccess); ada, the domain's owner, did not issue it.
    const foreign = await grantDomainAccess(runtime.deps, { applicationId: APP, domainId: 'notes' }, {
      issuerSubjectId: grace.holder.userId, viewerSubjectId: carol.holder.userId, namespaces: ['secret'], accessKeyJwk: key.publicJwk,
      accessGrantSourceArtifact: artifact('grant'), viewerSubjectSourceArtifact: artifact('carol'),
    })
    if (E.isLeft(foreign)) throw new Error(foreign.left.message)
    const body = await planned(runtime, ada, 'ada-revoke', [grantEvent('ada-revoke', { revoke: { accessGrantKey: grantKeyOf(foreign.right.accessGrantHandle) } })])
    const before = await runtime.snapshot()
    expect(await execute(runtime, ada, body)).toMatchObject({ reasonCode: 'capability-invalid', writes: 0 })
    expect(await runtime.snapshot()).toBe(before)
    // And that grant, issued by grace, opens none of ada's payloads.
    const wire = await readPrivate(runtime, carol, foreign.right.accessGrantHandle, foreign.right.grantHead)
    expect(wire.status === 'succeeded' && wire.additions.map((a) => a.additionKind)).toEqual(['public'])
    expect(JSON.stringify(await runtime.call('listPrivateDomainAdditions', { body: await privateReadBody(runtime, carol, foreign.right.accessGrantHandle, foreign.right.grantHead), token: carol.token }))).not.toContain(encoded('ada\'s secret'))
  })

  it('a domain that records no owner (stored before owners were) accepts no grant or revoke, even from its source artifact\'s owner', async () => {
    const key = await accessKeyPair()
    const change = parseGrantEvent(grantFor(carol.holder.userId, key.publicJwk).event) as GrantChange
    const legacy = { applicationId: APP, domainId: 'notes', ownerSubjectId: undefined }
    const planned = [{ change, source: ada.artifacts[0]!, issuerSubjectId: ada.holder.userId, eventHead: 'e'.repeat(64) }]
    expect(await grantChangeWrites(runtime.deps, legacy, planned, T0)).toEqual(E.left(expect.objectContaining({ reason: 'capability-invalid' })))
    expect(E.isRight(await grantChangeWrites(runtime.deps, { ...legacy, ownerSubjectId: ada.holder.userId }, planned, T0))).toBe(true)
  })
})
