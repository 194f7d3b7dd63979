/**
 * The plan builder without a server: what each key must sign, in order, is exactly what the
 * transition set carries (each capability link over its payload's RFC 8785 bytes, each member
 * consent over the consent bytes), each signature verifies with its signer's public key, and a
 * draft given the wrong number of signatures is refused instead of producing a broken set.
 */
import { describe, expect, it } from 'vitest'
import { fromBase64Url, toBase64Url } from '../core/proof/bytes.js'
import { capabilitySigningBytes, memberConsentBytes, proposedHeadOf } from '../core/runtime/execution-plan.js'
import { sha256OfJson } from '../core/digest/sha256.js'
import { draftExecutionPlan, genesisParticipantHead, loadOrCreateIdKey, signExecutionPlan, type SigningPlanKey } from './index.js'

const APP = 'com.example.notes'
const artifact = (name: string) => ({
  schema: 'cairn.v124.portable_sealed_artifact' as const, exactBytesB64u: toBase64Url(new TextEncoder().encode(name)), filename: `${name}.json`, mimeType: 'application/json',
  artifactSha256: sha256OfJson({ artifact: name }), payloadSha256: sha256OfJson({ payload: name }),
})

async function planKey(userId: string): Promise<SigningPlanKey & { publicKey: CryptoKey }> {
  const key = await loadOrCreateIdKey()
  const publicKey = await crypto.subtle.importKey('raw', fromBase64Url(key.publicKeyRawB64u)! as Uint8Array<ArrayBuffer>, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
  return { keyId: key.keyId, alg: key.alg, sign: key.sign, userId, identityArtifact: artifact(`${userId}-identity`), publicKey }
}

const verifies = (key: { publicKey: CryptoKey }, signatureB64u: string, bytes: Uint8Array) =>
  crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key.publicKey, fromBase64Url(signatureB64u)! as Uint8Array<ArrayBuffer>, bytes as Uint8Array<ArrayBuffer>)

describe('execution plans built by the client', () => {
  it('lists every signature the set needs and carries each one, verifiable with its signer key', async () => {
    const [ada, bob] = [await planKey('usr_ada'), await planKey('usr_bob')]
    const input = {
      applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'k1',
      participants: [{ participantId: 'doc-1', expectedHead: genesisParticipantHead(APP, 'doc-1'), predecessor: artifact('a'), candidate: artifact('b'), owner: ada, actor: bob, delegation: [{ grantee: bob }] }],
    }
    const draft = draftExecutionPlan(input, Date.parse('2026-06-25T00:00:00Z'))
    // Ada signs the delegation, Bob the capability he issues himself and the member consent.
    expect(draft.toSign.map((entry) => entry.signer.userId)).toEqual(['usr_ada', 'usr_bob', 'usr_bob'])
    const { plan, transitionSet } = await signExecutionPlan(input, Date.parse('2026-06-25T00:00:00Z'))
    expect(plan).toEqual(draft.plan)
    const member = transitionSet.members[0]!
    const [root, leaf] = [member.parentCapabilities![0]!, member.signedCapability]
    expect(await verifies(ada, root.signatureB64u, capabilitySigningBytes(root.payload))).toBe(true)
    expect(await verifies(bob, leaf.signatureB64u, capabilitySigningBytes(leaf.payload))).toBe(true)
    const consent = memberConsentBytes({ applicationId: APP, exactPlanDigest: plan.exactPlanDigest, participantId: 'doc-1', appendPlanDigest: member.operationPlan.planDigest.value })
    expect(member.identityProof.challengeB64Url).toBe(toBase64Url(consent))
    expect(await verifies(bob, member.identityProof.signatureB64Url, consent)).toBe(true)
    expect(member.operationPlan.actorConstraint).toBe('delegate')
    expect(transitionSet.proposedParticipantHeads['doc-1']).toBe(proposedHeadOf(genesisParticipantHead(APP, 'doc-1'), {
      applicationId: APP, participantId: 'doc-1', eventDigest: sha256OfJson(member.planning.event), candidateArtifactSha256: artifact('b').artifactSha256,
    }))
  })

  it('refuses to assemble a set from the wrong number of signatures', async () => {
    const ada = await planKey('usr_ada')
    const draft = draftExecutionPlan({
      applicationId: APP, domainId: 'notes', operationKind: 'append', semanticIdempotencyKey: 'k2',
      participants: [{ participantId: 'doc-2', expectedHead: genesisParticipantHead(APP, 'doc-2'), predecessor: artifact('a'), candidate: artifact('b'), owner: ada }],
    })
    expect(draft.toSign).toHaveLength(2)
    expect(() => draft.transitionSet([new Uint8Array(64)])).toThrow(RangeError)
  })
})
