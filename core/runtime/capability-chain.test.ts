/**
 * The chain rules on their own (signers outside any identity store): a chain whose every link
 * narrows its parent verifies; widening any one field of any delegated link is refused, naming
 * that link; and the structural rules (root, parent digest, depth, length, signer) each refuse.
 * The same rules through the execute pipeline: execution-delegation.test.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signCapabilityChain, signedByTestSigners, testSigner, type LinkToSign } from '../../hosts/http/capability-chain-test-support.js'
import { sha256Hex } from '../digest/sha256.js'
import { MAXIMUM_CAPABILITY_CHAIN_LENGTH, verifyCapabilityChain, type CapabilityPayload } from './capability-chain.js'

const NOW = 1_000_000_000
const OPERATIONS = ['artifact.append', 'artifact.read', 'artifact.share', 'artifact.delete']
const SCOPES = ['cairn:runtime.execute', 'cairn:runtime.read', 'cairn:runtime.session']
const registryDigest = { algorithm: 'sha-256' as const, binds: 'registry' as const, value: sha256Hex('registry') }
const constraints = {
  planDigest: { algorithm: 'sha-256' as const, binds: 'artifact-append-plan' as const, value: sha256Hex('plan') },
  commitDomain: { scheme: 'artifact', value: 'doc-a' },
}

// The owner issues the root; signer i + 1 is link i's grantee and issues link i + 1.
const signers = Array.from({ length: MAXIMUM_CAPABILITY_CHAIN_LENGTH + 2 }, (_, i) => testSigner(i === 0 ? 'usr_owner' : `usr_delegate_${i}`))
const signedBy = signedByTestSigners(signers)
const context = { ownerUserId: signers[0]!.userId, nowKai: NOW }

type Draft = Omit<CapabilityPayload, 'parentDigest' | 'delegationDepth' | 'issuerKeyId' | 'actorId'>

const rootDraft = (overrides: Partial<Draft> = {}): Draft => ({
  schema: 'cairn.v124.capability_payload', capabilityId: 'cap-root', tenantId: 'com.example.notes', audience: 'https://notes.example',
  authorityProfile: 'cairn.owner', operations: ['artifact.append'], resourceScopes: ['cairn:runtime.execute'], maximumEffects: 1, registryDigest,
  validFromKai: NOW - 1000, expiresAtKai: NOW + 1000, nonce: 'nonce-0123456789abcdef', maximumDelegationDepth: 7, offline: false, operationConstraints: null,
  ...overrides,
})

/** Signs drafts as a chain: link i issued by signer i to signer i + 1. */
function chainOf(drafts: readonly Draft[], change: (link: LinkToSign, depth: number) => LinkToSign = (link) => link) {
  return signCapabilityChain(drafts.map((draft, depth) => change({
    signer: signers[depth]!,
    payload: { ...draft, capabilityId: `cap-${depth}`, issuerKeyId: signers[depth]!.keyId, actorId: signers[depth + 1]!.userId },
  }, depth)))
}

const verify = (drafts: readonly Draft[], change?: (link: LinkToSign, depth: number) => LinkToSign) => verifyCapabilityChain(chainOf(drafts, change), context, signedBy)

/** One random narrowing step: subsets, no more effects, a window inside the parent's still holding now, constraints kept once set. */
const narrowing = fc.record({
  operationsMask: fc.nat(), scopesMask: fc.nat(), effects: fc.nat(), later: fc.nat(), sooner: fc.nat(), depthDrop: fc.nat(), constrain: fc.boolean(),
})
type Step = typeof narrowing extends fc.Arbitrary<infer S> ? S : never

/** The root (its maximum depth raised to fit) and one narrowed link per step. */
function narrowedChain(root: Draft, steps: readonly Step[]): Draft[] {
  const lastDepth = steps.length
  const drafts = [{ ...root, maximumDelegationDepth: Math.max(root.maximumDelegationDepth, lastDepth) }]
  for (const step of steps) {
    const parent = drafts[drafts.length - 1]!
    const operations = parent.operations.filter((_, i) => (step.operationsMask >> i) & 1)
    drafts.push({
      ...parent,
      operations: operations.length > 0 ? operations : parent.operations.slice(0, 1),
      resourceScopes: parent.resourceScopes.filter((_, i) => (step.scopesMask >> i) & 1),
      maximumEffects: step.effects % (parent.maximumEffects + 1),
      validFromKai: parent.validFromKai + (step.later % (NOW - parent.validFromKai + 1)),
      expiresAtKai: parent.expiresAtKai - (step.sooner % (parent.expiresAtKai - NOW)),
      maximumDelegationDepth: parent.maximumDelegationDepth - (step.depthDrop % (parent.maximumDelegationDepth - lastDepth + 1)),
      operationConstraints: parent.operationConstraints ?? (step.constrain ? constraints : null),
    })
  }
  return drafts
}

const WIDENINGS: Record<string, (link: Draft, parent: Draft) => Partial<Draft> | undefined> = {
  operations: (link) => ({ operations: [...link.operations, 'artifact.widened'] }),
  resourceScopes: (link) => ({ resourceScopes: [...link.resourceScopes, 'cairn:widened'] }),
  maximumEffects: (_, parent) => ({ maximumEffects: parent.maximumEffects + 1 }),
  validFromKai: (_, parent) => ({ validFromKai: parent.validFromKai - 1 }),
  expiresAtKai: (_, parent) => ({ expiresAtKai: parent.expiresAtKai + 1 }),
  maximumDelegationDepth: (_, parent) => ({ maximumDelegationDepth: parent.maximumDelegationDepth + 1 }),
  operationConstraints: (_, parent) => (parent.operationConstraints === null ? undefined : { operationConstraints: null }),
}

const rootArbitrary = fc.record({
  operations: fc.subarray(OPERATIONS, { minLength: 1 }),
  resourceScopes: fc.subarray(SCOPES),
  maximumEffects: fc.integer({ min: 0, max: 20 }),
  validFromKai: fc.integer({ min: NOW - 10_000, max: NOW }),
  expiresAtKai: fc.integer({ min: NOW + 1, max: NOW + 10_000 }),
  maximumDelegationDepth: fc.integer({ min: 0, max: MAXIMUM_CAPABILITY_CHAIN_LENGTH - 1 }),
  constrained: fc.boolean(),
}).map(({ constrained, ...root }) => rootDraft({ ...root, operationConstraints: constrained ? constraints : null }))

describe('verifyCapabilityChain', () => {
  it('verifies every chain whose links each narrow their parent, and refuses widening any one field of any delegated link, naming it', async () => {
    await fc.assert(fc.asyncProperty(
      rootArbitrary,
      fc.array(narrowing, { minLength: 1, maxLength: MAXIMUM_CAPABILITY_CHAIN_LENGTH - 1 }),
      fc.nat(), fc.nat(),
      async (root, steps, pickLink, pickField) => {
        const drafts = narrowedChain(root, steps)
        expect(await verify(drafts)).toEqual(E.right(expect.objectContaining({ delegationDepth: drafts.length - 1 })))
        const depth = 1 + (pickLink % (drafts.length - 1))
        const widenings = Object.entries(WIDENINGS).map(([field, widen]) => [field, widen(drafts[depth]!, drafts[depth - 1]!)] as const).filter(([, change]) => change)
        const [field, change] = widenings[pickField % widenings.length]!
        const widened = drafts.map((draft, i) => (i === depth ? { ...draft, ...change } : draft))
        const verdict = await verify(widened)
        expect(E.isLeft(verdict), `widened ${field} of link ${depth}`).toBe(true)
        expect(E.isLeft(verdict) && verdict.left).toContain(`capability link ${depth} of ${drafts.length}`)
      },
    ), { numRuns: 150 })
  })

  const two = [rootDraft(), rootDraft()]
  const refusals: [string, () => Promise<E.Either<string, unknown>>, RegExp][] = [
    ['a root that names a parent', () => verify(two, (link, depth) => (depth === 0 ? { ...link, payload: { ...link.payload, parentDigest: { algorithm: 'sha-256', binds: 'verified-capability', value: sha256Hex('p') } } } : link)), /link 0 of 2 \(the root\): a root capability names no parentDigest/],
    ['a wrong parentDigest', () => verify(two, (link, depth) => (depth === 1 ? { ...link, payload: { ...link.payload, parentDigest: { algorithm: 'sha-256', binds: 'verified-capability', value: sha256Hex('p') } } } : link)), /link 1 of 2 .*parentDigest is not the digest of its parent/],
    ['a depth skip', () => verify(two, (link, depth) => (depth === 1 ? { ...link, payload: { ...link.payload, delegationDepth: 2 } } : link)), /link 1 of 2 .*delegationDepth is 2 but the link sits at depth 1/],
    ['depth over the link\'s own maximum', () => verify([rootDraft({ maximumDelegationDepth: 0 }), rootDraft({ maximumDelegationDepth: 0 })]), /link 1 of 2 .*exceeds its maximumDelegationDepth/],
    ['a root issued by someone else', () => verify(two, (link, depth) => (depth === 0 ? { ...link, signer: signers[3]!, payload: { ...link.payload, issuerKeyId: signers[3]!.keyId } } : link)), /link 0 of 2 \(the root\): not signed by an ID key bound to the artifacts' owner/],
    ['a link signed by the owner instead of its parent\'s actor', () => verify(two, (link, depth) => (depth === 1 ? { ...link, signer: signers[0]!, payload: { ...link.payload, issuerKeyId: signers[0]!.keyId } } : link)), /link 1 of 2 .*its parent's actor \(usr_delegate_1\)/],
    ['another audience', () => verify([rootDraft(), rootDraft({ audience: 'https://elsewhere.example' })]), /link 1 of 2 .*another audience/],
    ['another tenant', () => verify([rootDraft(), rootDraft({ tenantId: 'org.example.other' })]), /link 1 of 2 .*another tenant/],
    ['another registry', () => verify([rootDraft(), rootDraft({ registryDigest: { ...registryDigest, value: sha256Hex('other') } })]), /link 1 of 2 .*another registry/],
    ['an expired link', () => verify([rootDraft(), rootDraft({ expiresAtKai: NOW })]), /link 1 of 2 .*not valid at this Kai moment/],
    ['a link not yet valid', () => verify([rootDraft({ validFromKai: NOW + 1 })]), /link 0 of 1 .*not valid at this Kai moment/],
    ['ancestor constraints for another plan', () => verify([rootDraft({ operationConstraints: { ...constraints, planDigest: { ...constraints.planDigest, value: sha256Hex('other plan') } } }), rootDraft({ operationConstraints: constraints })]), /link 1 of 2 .*operation constraints/],
    ['too long a chain', () => verify(Array.from({ length: MAXIMUM_CAPABILITY_CHAIN_LENGTH + 1 }, () => rootDraft({ maximumDelegationDepth: 8 }))), /holds 9 links; at most 8/],
  ]
  it.each(refusals)('refuses %s', async (_, verdict, message) => {
    const answer = await verdict()
    expect(E.isLeft(answer) && answer.left).toMatch(message)
  })

  it('refuses a tampered signature and an empty chain', async () => {
    const chain = chainOf(two)
    chain[0] = { ...chain[0]!, signatureB64u: chain[1]!.signatureB64u }
    expect(await verifyCapabilityChain(chain, context, signedBy)).toEqual(E.left(expect.stringMatching(/link 0 of 2 .*not signed/)))
    expect(await verifyCapabilityChain([], context, signedBy)).toEqual(E.left('the capability chain is empty'))
  })
})
