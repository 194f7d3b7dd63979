/**
 * Private additions: filtered for the viewer before the response is built, encrypted per viewer
 * (ECDH-ES P-256 + AES-GCM) and opened by the client helper with the viewer's access key only. A
 * viewer without the grant receives nothing of a payload, not even its length; a tampered envelope
 * fails decryption in the client; anything that is not the viewer's answers one reason-free failure.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { FixedClock } from '../../../adapters/memory/index.js'
import { InjectedFaultError, withFaults } from '../../../conformance/fault-injection.js'
import { bodyOf } from '../../../hosts/http/oidc-test-support.js'
import { components, type ComponentType } from '../../contract/components.js'
import { toBase64Url } from '../../encoding/base64url.js'
import type { UseCase } from '../../usecases/use-case.js'
import { decryptPrivateAddition, type EncryptedAddition } from '../decrypt-private-addition.js'
import { verifyRuntimeEnvelope } from '../verify-envelope.js'
import { appendDomainAdditions } from './append-additions.js'
import { RUNTIME_DOMAIN_PRIVATE } from './domain-records.js'
import { listPrivateDomainAdditions } from './private-additions.js'
import {
  accessKeyPair, APP, bytes, createDomainWorld, DOMAIN, openSession, statusOf, tokenSubject, unwrap, viewerWithGrant, type DomainWorld,
} from '../../../hosts/http/domains-test-support.js'

type Wire = ComponentType<'V124PrivateDomainAdditionsWire'>
type Success = ComponentType<'V124PrivateDomainAdditionsSuccessWire'>

const T0 = Date.parse('2026-06-25T00:00:00Z')
const PATH = '/api/sdk/v1/domains/verified-private-additions'
const SECRET = 'the grant holders only: 4242'

let runtime: DomainWorld
beforeEach(async () => { runtime = await createDomainWorld({ clock: new FixedClock(T0) }) })

/** A domain with a public addition, a `grant` payload in `secret`, an owner-only payload and a public one after. */
async function seed(world: DomainWorld, secret = SECRET) {
  const first = await unwrap(appendDomainAdditions(world.deps, DOMAIN, null, [
    { appendId: 'pub', namespace: 'notes', eventBytes: bytes('hello') },
    { appendId: 'granted', namespace: 'secret', eventBytes: bytes('a secret was added'), private: { visibility: 'grant', ownerSubjectId: 'sub_ada', payload: bytes(secret) } },
    { appendId: 'own', namespace: 'notes', eventBytes: bytes('a private note'), private: { visibility: 'private', ownerSubjectId: 'sub_ada', payload: bytes('ada only') } },
  ]))
  return unwrap(appendDomainAdditions(world.deps, DOMAIN, first.head, [{ appendId: 'after', namespace: 'notes', eventBytes: bytes('bye') }]))
}

async function verified(world: DomainWorld, body: Record<string, unknown>): Promise<Wire> {
  const reply = await world.call('listPrivateDomainAdditions', { body, token: world.token })
  expect(E.isRight(components.V124SignedPrivateDomainAdditionsEnvelope.decode(bodyOf(reply)))).toBe(true)
  const verdict = await verifyRuntimeEnvelope<Wire>(bodyOf(reply), { method: 'POST', path: PATH, body, applicationId: APP, audience: APP, domain: 'cairn.test' }, { jwks: await world.jwks(), now: T0 })
  if (!verdict.ok) throw new Error(verdict.errors.join('; '))
  return verdict.wire
}

const succeeded = (wire: Wire): Success => {
  if (wire.status !== 'succeeded') throw new Error('expected success')
  return wire
}

describe('verified private additions', () => {
  it('encrypts exactly the granted payloads for the viewer, and the client opens them', async () => {
    const appended = await seed(runtime)
    const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
    const wire = succeeded(await verified(runtime, bob.body()))
    expect(wire.additions.map((a) => [a.appendId, a.additionKind])).toEqual([['pub', 'public'], ['granted', 'encrypted'], ['own', 'public'], ['after', 'public']])
    expect(wire).toMatchObject({ head: appended.head, viewerSubjectId: 'sub_bob', grantHead: bob.grant.grantHead, accessKeyHead: bob.key.accessKeyHead, viewerSubjectHead: bob.subjectHead })
    const encrypted = wire.additions[1] as EncryptedAddition
    expect(encrypted).toMatchObject({ domainHead: appended.head, viewerSubjectId: 'sub_bob', grantHead: bob.grant.grantHead, accessKeyHead: bob.key.accessKeyHead })
    expect(encrypted.privateEnvelope.recipientWrap.ephemeralPublicKeyJwk).toMatchObject({ kty: 'EC', crv: 'P-256', ext: true, key_ops: [] })
    const opened = await decryptPrivateAddition(encrypted, bob.expectation, bob.key.privateKey)
    expect(opened.ok && new TextDecoder().decode(opened.payload)).toBe(SECRET)
    expect(JSON.stringify(wire)).not.toContain(toBase64Url(bytes('ada only')))
  })

  it('a viewer without the grant receives nothing of the payload, not even its length', async () => {
    // Two deployments identical but for the length and content of the private payload.
    const other = await createDomainWorld({ clock: new FixedClock(T0) })
    await seed(runtime, 'x')
    await seed(other, 'a much longer private payload '.repeat(100))
    const carol = await viewerWithGrant(runtime, 'sub_carol', ['notes'])
    const carolThere = await viewerWithGrant(other, 'sub_carol', ['notes'])
    const here = succeeded(await verified(runtime, carol.body()))
    const there = succeeded(await verified(other, carolThere.body()))
    expect(here.additions.every((a) => a.additionKind === 'public')).toBe(true)
    const strip = (wire: Success) => ({ ...wire, grantHead: '', accessKeyHead: '' })
    expect(strip(here)).toEqual(strip(there))
    // And what the public additions carry is exactly what the public replay shows of them.
    expect(here.additions[1]).toMatchObject({ appendId: 'granted', exactPublicEventBytesB64u: toBase64Url(bytes('a secret was added')) })
  })

  it('the filter runs before the response is built: ungranted payloads are never read', async () => {
    await seed(runtime)
    const carol = await viewerWithGrant(runtime, 'sub_carol', ['notes'])
    const reads: string[] = []
    const store = new Proxy(runtime.deps.store, {
      get(target, prop, receiver) {
        if (prop === 'get') return (collection: string, key: string) => { reads.push(collection); return target.get(collection, key) }
        return Reflect.get(target, prop, receiver)
      },
    })
    const principal = { kind: 'bearer', actsAsClient: true, clientId: APP, subject: await tokenSubject(runtime, runtime.token), scopes: ['cairn:runtime.read'], businessTier: false } as never
    const reply = await (listPrivateDomainAdditions as unknown as UseCase)({ params: {}, query: {}, body: carol.body(), principal }, { ...runtime.deps, store })
    expect(E.isRight(reply)).toBe(true)
    expect(reads).not.toContain(RUNTIME_DOMAIN_PRIVATE)
  })

  it('the owner reads its own private payloads', async () => {
    await seed(runtime)
    const ada = await viewerWithGrant(runtime, 'sub_ada', ['notes'])
    const wire = succeeded(await verified(runtime, ada.body()))
    expect(wire.additions.map((a) => a.additionKind)).toEqual(['public', 'encrypted', 'encrypted', 'public'])
    const texts = await Promise.all(wire.additions.filter((a) => a.additionKind === 'encrypted').map(async (a) => {
      const opened = await decryptPrivateAddition(a as EncryptedAddition, ada.expectation, ada.key.privateKey)
      return opened.ok ? new TextDecoder().decode(opened.payload) : opened.errors.join()
    }))
    expect(texts).toEqual([SECRET, 'ada only'])
  })

  it('answers after an exact head, resumable', async () => {
    const appended = await seed(runtime)
    const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
    const all = succeeded(await verified(runtime, bob.body()))
    const rest = succeeded(await verified(runtime, bob.body(all.additions[1]!.newHead)))
    expect(rest.additions.map((a) => a.appendId)).toEqual(['own', 'after'])
    expect(rest).toMatchObject({ afterHead: all.additions[1]!.newHead, afterCursor: '1', head: appended.head })
    const done = succeeded(await verified(runtime, bob.body(appended.head)))
    expect(done.additions).toEqual([])
  })

  it('under a fault at any Store call it fails or answers, and never writes', async () => {
    await seed(runtime)
    const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
    const principal = { kind: 'bearer', actsAsClient: true, clientId: APP, subject: await tokenSubject(runtime, runtime.token), scopes: ['cairn:runtime.read'], businessTier: false } as never
    for (const method of ['get', 'getByUnique', 'query', 'streamHead', 'readStream', 'commit'] as const) {
      for (const call of [1, 2, 3, 4, 5]) {
        const store = withFaults(runtime.deps.store, [{ method, call, when: 'before' }])
        const reply = await (listPrivateDomainAdditions as unknown as UseCase)({ params: {}, query: {}, body: bob.body(), principal }, { ...runtime.deps, store }).catch((error: unknown) => error)
        if (reply instanceof Error) expect(reply).toBeInstanceOf(InjectedFaultError)
        else expect(E.isRight(reply as E.Either<unknown, unknown>)).toBe(true)
        expect(store.callsOf('commit')).toBe(0)
      }
    }
  })

  describe('a tampered envelope fails decryption in the client', () => {
    type Tamper = (a: { -readonly [K in keyof EncryptedAddition]: any }) => void
    const flip = (b64u: string) => (b64u[0] === 'A' ? 'B' : 'A') + b64u.slice(1)
    const tampers: [string, Tamper][] = [
      ['ciphertext', (a) => { a.privateEnvelope = { ...a.privateEnvelope, ciphertextB64u: flip(a.privateEnvelope.ciphertextB64u) } }],
      ['payload nonce', (a) => { a.privateEnvelope = { ...a.privateEnvelope, nonceB64u: flip(a.privateEnvelope.nonceB64u) } }],
      ['wrapped content key', (a) => { a.privateEnvelope = { ...a.privateEnvelope, recipientWrap: { ...a.privateEnvelope.recipientWrap, wrappedContentKeyB64u: flip(a.privateEnvelope.recipientWrap.wrappedContentKeyB64u) } } }],
      ['domain head binding', (a) => { a.domainHead = 'd'.repeat(64) }],
      ['event digest binding', (a) => { a.eventDigest = 'e'.repeat(64) }],
      ['payload digest', (a) => { a.privateEnvelope = { ...a.privateEnvelope, payloadDigest: 'f'.repeat(64) } }],
      ['grant head', (a) => { a.grantHead = '0'.repeat(64) }],
    ]
    it.each(tampers)('%s', async (_name, tamper) => {
      await seed(runtime)
      const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
      const wire = succeeded(await verified(runtime, bob.body()))
      const addition = structuredClone(wire.additions[1]) as { -readonly [K in keyof EncryptedAddition]: any }
      tamper(addition)
      const opened = await decryptPrivateAddition(addition as EncryptedAddition, bob.expectation, bob.key.privateKey)
      expect(opened.ok).toBe(false)
    })

    it('and another access key cannot open it', async () => {
      await seed(runtime)
      const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
      const wire = succeeded(await verified(runtime, bob.body()))
      const stranger = await accessKeyPair()
      const opened = await decryptPrivateAddition(wire.additions[1] as EncryptedAddition, bob.expectation, stranger.privateKey)
      expect(opened.ok).toBe(false)
    })

    it('even when the attacker recomputes every digest around an altered ciphertext', async () => {
      const { sha256OfJson } = await import('../../digest/sha256.js')
      await seed(runtime)
      const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
      const wire = succeeded(await verified(runtime, bob.body()))
      const addition = structuredClone(wire.additions[1]) as unknown as { privateEnvelope: Record<string, unknown> }
      const rest: Record<string, unknown> = { ...addition.privateEnvelope, ciphertextB64u: flip(addition.privateEnvelope.ciphertextB64u as string) }
      delete rest.envelopeDigest
      addition.privateEnvelope = { ...rest, envelopeDigest: sha256OfJson(rest) }
      const opened = await decryptPrivateAddition(addition as unknown as EncryptedAddition, bob.expectation, bob.key.privateKey)
      expect(opened).toMatchObject({ ok: false, errors: [expect.stringMatching(/does not decrypt/)] })
    })
  })

  describe('anything that is not the viewer\'s answers one reason-free signed failure and writes nothing', () => {
    const failures: [string, (world: DomainWorld, body: Record<string, unknown>) => Promise<Record<string, unknown>>][] = [
      ['an unknown session', async (_w, body) => ({ ...body, authoritySessionHandle: 'A'.repeat(43) })],
      ['an expired session', async (w, body) => ({ ...body, authoritySessionHandle: await openSession(w.deps, await tokenSubject(w, w.token), 'sub_bob', { expiresAtMs: T0 }) })],
      ['a closed session', async (w, body) => ({ ...body, authoritySessionHandle: await openSession(w.deps, await tokenSubject(w, w.token), 'sub_bob', { status: 'closed' }) })],
      ['a session of another person', async (w, body) => ({ ...body, authoritySessionHandle: await openSession(w.deps, 'usr_mallory', 'sub_bob') })],
      ['a session acting as another subject', async (w, body) => ({ ...body, authoritySessionHandle: await openSession(w.deps, await tokenSubject(w, w.token), 'sub_carol') })],
      ['an unknown grant', async (_w, body) => ({ ...body, accessGrantHandle: 'B'.repeat(43) })],
      ['another grant head', async (_w, body) => ({ ...body, expectedGrantHead: 'a'.repeat(64) })],
      ['another viewer subject head', async (_w, body) => ({ ...body, expectedViewerSubjectHead: 'b'.repeat(64) })],
      ['another viewer subject', async (_w, body) => ({ ...body, expectedViewerSubjectId: 'sub_carol' })],
      ['another domain', async (_w, body) => ({ ...body, domainId: 'other' })],
      ['a head the domain never had', async (_w, body) => ({ ...body, afterHead: 'c'.repeat(64) })],
    ]
    it.each(failures)('%s', async (_name, alter) => {
      await seed(runtime)
      const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
      const body = await alter(runtime, bob.body())
      expect(await verified(runtime, body)).toEqual({ schema: 'cairn.v124.private_domain_additions_failure_wire', status: 'failed' })
      const store = withFaults(runtime.deps.store, [])
      const principal = { kind: 'bearer', actsAsClient: true, clientId: APP, subject: await tokenSubject(runtime, runtime.token), scopes: ['cairn:runtime.read'], businessTier: false } as never
      await (listPrivateDomainAdditions as unknown as UseCase)({ params: {}, query: {}, body, principal }, { ...runtime.deps, store })
      expect(store.callsOf('commit')).toBe(0)
    })

    it('but a token for another application is a 403, as everywhere in the runtime', async () => {
      await seed(runtime)
      const bob = await viewerWithGrant(runtime, 'sub_bob', ['secret'])
      expect(statusOf(await runtime.call('listPrivateDomainAdditions', { body: { ...bob.body(), applicationId: 'org.other.app' }, token: runtime.token }))).toBe(403)
    })
  })
})
