/**
 * A delegated capability chain, verified link by link (docs/runtime.md, Execute step 4): the root
 * is the owner's grant (depth 0, no parent); each later link is issued by its parent's actor, names
 * its parent by `capabilityDigestOf`, sits one level deeper, and only narrows what its parent
 * grants. The last link is the member's own capability; what it must say about the plan (actor,
 * operation, constraints) is the caller's check. Rules are pure; the signature check, which reads
 * identities, is passed in.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { canonicalJson } from '../digest/canonical-json.js'
import { capabilityDigestOf } from './execution-plan.js'

export type SignedCapability = ComponentType<'V124SignedCapability'>
export type CapabilityPayload = ComponentType<'V124CapabilityPayload'>

/**
 * Root and leaf included (delegation depth ≤ 7). Each link costs an identity read and a signature
 * check per member, so an unbounded chain would let one request buy unbounded work.
 */
export const MAXIMUM_CAPABILITY_CHAIN_LENGTH = 8

/** True when `capability` is signed by an ID key bound to `userId` now. */
export type SignedByBoundKey = (userId: string, capability: SignedCapability) => Promise<boolean>

export interface ChainContext {
  /** The artifacts' owner: the only one who may issue the root. */
  readonly ownerUserId: string
  /** Now, in Kai μpulses: every link must be valid at this moment. */
  readonly nowKai: number
}

/**
 * Verifies `chain` (root first, the member's capability last); answers the leaf's payload, or a
 * sentence naming the first link that fails and why.
 *
 * @example await verifyCapabilityChain([...(member.parentCapabilities ?? []), member.signedCapability], { ownerUserId, nowKai }, signedBy)
 */
export async function verifyCapabilityChain(
  chain: readonly SignedCapability[],
  context: ChainContext,
  signedBy: SignedByBoundKey,
): Promise<Either<string, CapabilityPayload>> {
  if (chain.length === 0) return E.left('the capability chain is empty')
  if (chain.length > MAXIMUM_CAPABILITY_CHAIN_LENGTH) {
    return E.left(`the capability chain holds ${chain.length} links; at most ${MAXIMUM_CAPABILITY_CHAIN_LENGTH} are verified`)
  }
  // The pure rules first, so a malformed chain costs no identity read.
  for (const [depth, link] of chain.entries()) {
    const broken = brokenRule(link.payload, chain[depth - 1]?.payload, depth, context.nowKai)
    if (broken) return E.left(`${linkName(depth, chain.length)}: ${broken}`)
  }
  for (const [depth, link] of chain.entries()) {
    const issuer = depth === 0 ? context.ownerUserId : chain[depth - 1]!.payload.actorId
    if (!(await signedBy(issuer, link))) {
      const whose = depth === 0 ? 'the artifacts\' owner' : 'its parent\'s actor'
      return E.left(`${linkName(depth, chain.length)}: not signed by an ID key bound to ${whose} (${issuer})`)
    }
  }
  return E.right(chain[chain.length - 1]!.payload)
}

function linkName(depth: number, length: number): string {
  const role = depth === length - 1 ? 'the member\'s capability' : depth === 0 ? 'the root' : 'a delegation'
  return `capability link ${depth} of ${length} (${role})`
}

const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b)
const within = (items: readonly string[], allowed: readonly string[]): boolean => items.every((item) => allowed.includes(item))

/** The first rule `link` at `depth` breaks, or undefined. A child may only narrow its parent. */
function brokenRule(link: CapabilityPayload, parent: CapabilityPayload | undefined, depth: number, nowKai: number): string | undefined {
  if (link.delegationDepth !== depth) return `delegationDepth is ${link.delegationDepth} but the link sits at depth ${depth}`
  if (link.delegationDepth > link.maximumDelegationDepth) return 'delegationDepth exceeds its maximumDelegationDepth'
  if (nowKai < link.validFromKai || nowKai >= link.expiresAtKai) return 'not valid at this Kai moment'
  if (!parent) return link.parentDigest === null ? undefined : 'a root capability names no parentDigest'
  if (!link.parentDigest || link.parentDigest.value !== capabilityDigestOf(parent).value) return 'parentDigest is not the digest of its parent'
  if (link.maximumDelegationDepth > parent.maximumDelegationDepth) return 'raises its parent\'s maximumDelegationDepth'
  if (link.audience !== parent.audience) return 'is for another audience than its parent'
  if (link.tenantId !== parent.tenantId) return 'is for another tenant than its parent'
  if (!sameJson(link.registryDigest, parent.registryDigest)) return 'names another registry than its parent'
  if (!within(link.operations, parent.operations)) return 'grants an operation its parent does not'
  if (!within(link.resourceScopes, parent.resourceScopes)) return 'grants a resource scope its parent does not'
  if (link.maximumEffects > parent.maximumEffects) return 'allows more effects than its parent'
  if (link.validFromKai < parent.validFromKai || link.expiresAtKai > parent.expiresAtKai) return 'is valid outside its parent\'s window'
  if (parent.operationConstraints !== null && !sameJson(link.operationConstraints, parent.operationConstraints)) {
    return 'drops or changes its parent\'s operation constraints'
  }
  return undefined
}
