import * as t from 'io-ts'
import { isRight } from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { toJsonSchema } from '../../json-schema.js'
import { RUNTIME_AUTHORITY, RuntimeAuthority } from './authority.js'
import { runtimeComponents } from './index.js'

/** The spec's required lists (schemas-required.json, every V124/V125 name); '' is the spec's "none". */
const SPEC_REQUIRED: Record<string, string> = {
  V124ApplicationId: '',
  V124ArtifactAppendPlan: 'transitionDigest actor resource operation commitDomain effectsDigest idempotencyKeyDigest registryDigest schema transition actorConstraint planDigest authority',
  V124ArtifactAppendPlanDigest: 'algorithm binds value',
  V124ArtifactAppendReceipt: 'commitDomain actor resource operation planDigest capabilityDigest transitionDigest artifactDigest priorHead acceptedHead commandDigest idempotencyIdentityDigest authority',
  V124ArtifactDigest: 'algorithm binds value',
  V124ArtifactPreservedNamespace: 'namespace bodyDigest',
  V124ArtifactProofSuiteRequirements: 'signatureVersion carrier',
  V124ArtifactTransitionBasis: 'artifactId priorArtifactDigest basePayloadDigest expectedHead proposedHistoryHead namespace namespaceLawVersion namespaceReducerVersion priorNamespaceBodyDigest eventDigest proposedNamespaceBodyDigest preservedNamespaces registryDigest actor proofSuiteRequirements',
  V124ArtifactTransitionCommandDigest: 'algorithm binds value',
  V124ArtifactTransitionCommitCommand: 'planDigest capabilityDigest transitionDigest candidateArtifactDigest stagedCandidateReference commitDomain commandDigest',
  V124ArtifactTransitionCommitUnit: 'commitDomain plan capability command expectedHead',
  V124ArtifactTransitionDigest: 'algorithm binds value',
  V124AuthenticatedRuntimeReceipt: 'schema method path requestDigest wireDigest applicationId audience issuedAtKaiUPulse expiresAtKaiUPulse revocationHead revokedAtKaiUPulse authority receiptDigest',
  V124AuthorityNamespaceHead: 'name head digest',
  V124AuthoritySession: 'schema status authoritySessionHandle applicationId audience actorSubjectId subjectSourceArtifactSha256 identityArtifactSha256 identityKeyId grantedScopes grantedRails namespaces revocationHead issuedAtKaiUPulse expiresAtKaiUPulse sessionBindingDigest runtimeReceiptDigest authority',
  V124AuthoritySessionClosed: 'schema status authoritySessionHandle applicationId audience revocationHead closedAtKaiUPulse sessionBindingDigest runtimeReceiptDigest authority',
  V124CapabilityOperationConstraints: 'planDigest commitDomain',
  V124CapabilityPayload: 'schema capabilityId issuerKeyId actorId tenantId audience authorityProfile operations resourceScopes maximumEffects registryDigest validFromKai expiresAtKai nonce parentDigest delegationDepth maximumDelegationDepth offline operationConstraints',
  V124CloseAuthoritySessionRequest: 'applicationId authoritySessionHandle expectedPriorRevocationHead expectedPriorSessionBindingDigest',
  V124CommitDomainId: 'scheme value',
  V124CommittedExecutionOutcome: 'schema status executionId applicationId domainId operationKind exactPlanDigest semanticIdempotencyKey attemptId terminalAtKaiUPulse committedHeads outcomeDigest authority receiptDigest',
  V124Digest: '',
  V124DomainCheckpointProjection: 'schema status applicationId domainId registryDigest reducerDigest throughHead cursor namespace exactCheckpointBytesB64u checkpointDigest receiptDigest authority',
  V124DomainNamespaceProjection: 'name exactBytesB64u digest head',
  V124DomainReplayAddition: 'appendId sequence cursor exactEventBytesB64u eventDigest causalParents priorHead newHead namespaceHead namespaceDigest',
  V124DomainReplayProjection: 'schema status applicationId domainId registryDigest reducerDigest afterHead afterCursor cursor priorHead head namespace additions receiptDigest authority',
  V124DurableExecutionHandle: 'schema executionId applicationId domainId operationKind exactPlanDigest semanticIdempotencyKey attemptId stagedAtKaiUPulse handleDigest authority receiptDigest',
  V124ExactIdentityArtifact: 'exactBytesB64u digest',
  V124ExecutionCancelRequest: 'applicationId handle authoritySession',
  V124ExecutionCancelWire: '',
  V124ExecutionExecuteRequest: 'applicationId handle authoritySession transitionSet',
  V124ExecutionFailureReason: '',
  V124ExecutionOutcome: '',
  V124ExecutionResolutionWire: '',
  V124ExecutionStageRequest: 'applicationId plan',
  V124ExecutionStageWire: '',
  V124ExecutionTransitionRecoveryResponse: 'schema outcome recovery',
  V124ExecutionZeroWriteFailure: 'schema executionId applicationId domainId operationKind exactPlanDigest semanticIdempotencyKey attemptId reasonCode writes failureDigest authority receiptDigest',
  V124ExpectedPriorAuthoritySession: 'actorSubjectId subjectSourceArtifactSha256 identityArtifactSha256 identityKeyId grantedScopes grantedRails namespaces revocationHead issuedAtKaiUPulse expiresAtKaiUPulse sessionBindingDigest',
  V124ExternalOperationEffectsDigest: 'algorithm binds value',
  V124HistoryDigest: 'algorithm binds value',
  V124IdempotencyIdentityDigest: 'algorithm binds value',
  V124IdentityLoginProof: 'schema keyId alg challengeB64Url signatureB64Url',
  V124NamespaceBodyDigest: 'algorithm binds value',
  V124NamespaceEventDigest: 'algorithm binds value',
  V124NamespaceId: 'scheme value',
  V124NamespaceResolutionRequest: 'applicationId subjectId atHead names expectedAdmittedProofDigest expectedOwnershipHead expectedRegistryDigest expectedReducerDigest',
  V124NamespaceResolutionWire: 'schema subjectId atHead admittedProofDigest ownershipHead registryDigest reducerDigest namespaces authority resolutionDigest sourceArtifact',
  V124NoncommittedExecutionOutcome: 'schema status executionId applicationId domainId operationKind exactPlanDigest semanticIdempotencyKey attemptId terminalAtKaiUPulse reasonCode writes outcomeDigest authority receiptDigest',
  V124OpenAuthoritySessionRequest: 'applicationId actorSubjectId artifact subjectSourceArtifact signedChallenge requestedRails requiredNamespaces audience',
  V124OperationPlan: 'schema applicationId domainId operationKind registryDigest reducerDigest exactPlanBytesB64u exactPlanDigest expectedParticipantHeads semanticIdempotencyKey attemptId writesOnFailure',
  V124OperationalCapability: 'operation status actualGrantedScopes serviceVersion registryVersion reducerVersion publicDependencyHeads dependencyHealth reasonCode retry evidence',
  V124OperationalCapabilityReportWire: 'schema applicationId requestedOperations qualifiedAtKaiUPulse results reportDigest authority',
  V124OperationalQualificationRequest: 'applicationId operations',
  V124PayloadDigest: 'algorithm binds value',
  V124PortableExecutionPlanning: 'commitDomain namespace event expectedHead idempotencyKey',
  V124PortableExecutionTransitionMember: 'schema profile participantId operationPlan planning predecessor candidate identityArtifact signedCapability identityProof authority',
  V124PortableExecutionTransitionSet: 'schema applicationId exactPlanDigest expectedParticipantHeads proposedParticipantHeads members authority',
  V124PortableSealedArtifact: 'schema exactBytesB64u filename mimeType artifactSha256 payloadSha256',
  V124PrivateDomainAddition: '',
  V124PrivateDomainAdditionsFailureWire: 'schema status',
  V124PrivateDomainAdditionsSuccessWire: 'schema status applicationId domainId afterHead afterCursor cursor priorHead head viewerSubjectId viewerSubjectHead grantHead accessKeyHead additions sourceArtifact viewerSubjectSourceArtifact accessGrantSourceArtifact authority',
  V124PrivateDomainAdditionsWire: '',
  V124PrivateDomainEncryptedAddition: 'additionKind appendId sequence cursor exactPublicEventBytesB64u eventDigest priorHead newHead domainHead viewerSubjectId viewerSubjectHead grantHead accessKeyHead privateEnvelope recipientWrapDigest',
  V124PrivateDomainPublicAddition: 'additionKind appendId sequence cursor exactPublicEventBytesB64u eventDigest priorHead newHead domainHead',
  V124PrivateRecipientEphemeralPublicKey: 'key_ops ext kty crv x y',
  V124PrivateRecipientWrapProjection: 'recipientSubjectId recipientAccessKeyHead ephemeralPublicKeyJwk nonceB64u wrappedContentKeyB64u wrapDigest',
  V124PrivateWorldEnvelopeProjection: 'schema worldId visibilityMode ciphertextB64u nonceB64u aadDigest payloadDigest envelopeDigest recipientWrap authority',
  V124ProofAuthorityChallenge: 'schema audience nonce issuedAtKai expiresAtKai consent proof',
  V124PublicRecipientResolutionFailureWire: 'schema status',
  V124PublicRecipientResolutionRequest: 'applicationId authoritySessionHandle expectedRequesterSubjectId normalizedAlias purpose operationNonce',
  V124PublicRecipientResolutionSuccessWire: 'schema status applicationId normalizedAlias purpose operationNonce display encryptedLocatorB64u expiresAtKaiUPulse locatorDigest authority',
  V124PublicRecipientResolutionWire: '',
  V124RefreshAuthoritySessionRequest: 'applicationId authoritySessionHandle artifact signedChallenge requestedRails requiredNamespaces audience expectedPriorSession',
  V124RegistryBoundDigest: 'algorithm binds value',
  V124SealedSourcePublicationRequest: 'applicationId authoritySessionHandle sourceArtifact',
  V124SealedSourcePublicationResult: 'schema status sourceKind artifactSha256 sourceBindingDigest authority',
  V124SignedActiveAuthoritySessionEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedCapability: 'schema payload alg signatureB64u',
  V124SignedClosedAuthoritySessionEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedDomainCheckpointEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedDomainReplayEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedExecutionCancelEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedExecutionResolutionEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedExecutionStageEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedNamespaceResolutionEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedOperationalCapabilityEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedPrivateDomainAdditionsEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedPublicRecipientResolutionEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124SignedSealedSourcePublicationEnvelope: 'schema wire receipt transportBinding transportSignature',
  V124StagedCandidateReference: 'commitDomain artifactDigest transitionDigest storageKeyDigest authority',
  V124TransportBinding: 'schema domain issuerRootKid method path requestDigest wireDigest receiptDigest applicationId audience issuedAtKaiPulse issuedAtKaiUPulse expiresAtKaiUPulse revocationHead authority',
  V124TransportSignature: 'schema kid alg sig',
  V124UnknownExecutionOutcome: 'schema status executionId applicationId domainId operationKind exactPlanDigest semanticIdempotencyKey attemptId stagedAtKaiUPulse plan authority receiptDigest',
  V124VerifiedActorEvidenceDigest: 'algorithm binds value',
  V124VerifiedActorReference: 'actorId evidenceDigest admissionProfile registryDigest',
  V124VerifiedCapability: 'schema payload digest verifier authority',
  V124VerifiedCapabilityDigest: 'algorithm binds value',
  V124VerifiedCheckpointRequest: 'applicationId domainId throughHead',
  V124VerifiedPrivateAdditionsRequest: 'applicationId domainId afterHead authoritySessionHandle accessGrantHandle expectedViewerSubjectId expectedViewerSubjectHead expectedGrantHead',
  V124VerifiedReplayRequest: 'applicationId domainId afterHead expectedRegistryDigest expectedReducerDigest',
  V125ExactProofObject: 'exactBytesB64u filename mimeType',
  V125LawfulActionAdmissionRequest: 'lawDigest proofObject expectedPriorAdmissionDigest idempotencyKey',
  V125LawfulActionLawRegistrationRequest: 'proofObject idempotencyKey',
  V125LawfulActionResult: 'ok',
  V125LawfulActionValueHeadRequest: 'membershipId expectedPriorValueHeadDigest',
}

const entries = Object.entries(runtimeComponents) as [string, t.Any][]
const names: ReadonlyMap<t.Any, string> = new Map(entries.map(([name, codec]) => [codec, name]))

/** Required and optional props of a `struct` (an intersection of t.type and t.partial), if it is one. */
function structProps(codec: t.Any): t.Props | undefined {
  const types = (codec as unknown as { types?: t.Any[] }).types
  const first = types?.[0] as { _tag?: string; props?: t.Props } | undefined
  return first?._tag === 'InterfaceType' ? first.props : undefined
}

const snake = (name: string) => name.replace(/^V12[45]/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

describe('runtime components', () => {
  it('has exactly the 106 V124/V125 names of the spec', () => {
    expect(entries).toHaveLength(106)
    expect(Object.keys(runtimeComponents).sort()).toEqual(Object.keys(SPEC_REQUIRED).sort())
  })

  it.each(entries)('%s: key equals codec name', (name, codec) => {
    expect(codec.name).toBe(name)
  })

  it.each(entries)('%s: required list is exactly the spec list', (name, codec) => {
    const spec = SPEC_REQUIRED[name]!.split(' ').filter(Boolean).sort()
    if (spec.length === 0) {
      // "none" rows are non-object aliases: a string, a $ref or an anyOf of $refs, never an object with required.
      const schema = toJsonSchema(codec, names, codec)
      expect(schema.required).toBeUndefined()
      expect(schema.type === 'object').toBe(false)
    } else {
      const schema = toJsonSchema(codec, new Map(), codec)
      expect(((schema.required as string[] | undefined) ?? []).slice().sort()).toEqual(spec)
    }
  })

  it.each(entries)('%s: publishes as JSON Schema whose $refs all name components', (name, codec) => {
    expect(() => toJsonSchema(codec, new Map(), codec)).not.toThrow()
    const refs = JSON.stringify(toJsonSchema(codec, names, codec)).match(/#\/components\/schemas\/\w+/g) ?? []
    for (const ref of refs) expect(names.has(runtimeComponents[ref.split('/').pop() as keyof typeof runtimeComponents]), `${name} → ${ref}`).toBe(true)
  })

  it('schema strings follow cairn.v124.<snake_name> / cairn.v125.<snake_name>', () => {
    for (const [name, codec] of entries) {
      const schema = structProps(codec)?.['schema'] as t.LiteralC<string> | undefined
      if (!schema) continue
      const version = name.startsWith('V125') ? 'v125' : 'v124'
      expect(schema.value, name).toBe(`cairn.${version}.${snake(name)}`)
    }
  })

  it('every `authority` the spec requires is the one shared RuntimeAuthority codec', () => {
    const withAuthority = Object.entries(SPEC_REQUIRED).filter(([, required]) => required.split(' ').includes('authority'))
    expect(withAuthority.length).toBeGreaterThan(20)
    for (const [name] of withAuthority) {
      expect(structProps(runtimeComponents[name as keyof typeof runtimeComponents])?.['authority'], name).toBe(RuntimeAuthority)
    }
  })

  it('unions of components publish as anyOf of $refs', () => {
    expect(toJsonSchema(runtimeComponents.V124ExecutionOutcome, names, runtimeComponents.V124ExecutionOutcome)).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/V124CommittedExecutionOutcome' },
        { $ref: '#/components/schemas/V124NoncommittedExecutionOutcome' },
        { $ref: '#/components/schemas/V124UnknownExecutionOutcome' },
      ],
    })
    expect(toJsonSchema(runtimeComponents.V124ExecutionStageWire, names, runtimeComponents.V124ExecutionStageWire)).toEqual({
      $ref: '#/components/schemas/V124DurableExecutionHandle',
    })
  })
})

const hex = (c: string) => c.repeat(64)
const base = {
  applicationId: 'com.example.notes',
  audience: 'https://notes.example.com',
  authority: RUNTIME_AUTHORITY,
}

const transportBinding = {
  schema: 'cairn.v124.transport_binding',
  domain: 'cairn.example.com',
  issuerRootKid: 'kid-2026-01',
  method: 'POST',
  path: '/api/sdk/v1/execution/stage',
  requestDigest: hex('a'),
  wireDigest: hex('b'),
  receiptDigest: hex('c'),
  ...base,
  issuedAtKaiPulse: 12_000_000,
  issuedAtKaiUPulse: 12_000_000_123_456,
  expiresAtKaiUPulse: 12_000_100_000_000,
  revocationHead: hex('d'),
}

const operationPlan = {
  schema: 'cairn.v124.operation_plan',
  applicationId: base.applicationId,
  domainId: 'notes',
  operationKind: 'note.append',
  registryDigest: hex('1'),
  reducerDigest: hex('2'),
  exactPlanBytesB64u: 'eyJwbGFuIjoxfQ',
  exactPlanDigest: hex('3'),
  expectedParticipantHeads: { alice: hex('4'), bob: hex('5') },
  semanticIdempotencyKey: 'append-note-42',
  attemptId: 'attempt-1',
  writesOnFailure: 0,
}

const handle = {
  schema: 'cairn.v124.durable_execution_handle',
  executionId: 'exec-1',
  applicationId: base.applicationId,
  domainId: 'notes',
  operationKind: 'note.append',
  exactPlanDigest: hex('3'),
  semanticIdempotencyKey: 'append-note-42',
  attemptId: 'attempt-1',
  stagedAtKaiUPulse: 12_000_000_123_456,
  handleDigest: hex('6'),
  authority: RUNTIME_AUTHORITY,
  receiptDigest: hex('c'),
}

const stageEnvelope = {
  schema: 'cairn.v124.signed_execution_stage_envelope',
  wire: handle,
  receipt: {
    schema: 'cairn.v124.authenticated_runtime_receipt',
    method: 'POST',
    path: '/api/sdk/v1/execution/stage',
    requestDigest: hex('a'),
    wireDigest: hex('b'),
    ...base,
    issuedAtKaiUPulse: 12_000_000_123_456,
    expiresAtKaiUPulse: 12_000_100_000_000,
    revocationHead: hex('d'),
    revokedAtKaiUPulse: null,
    receiptDigest: hex('c'),
  },
  transportBinding,
  transportSignature: { schema: 'cairn.v124.transport_signature', kid: 'kid-2026-01', alg: 'EdDSA', sig: 'c2lnbmF0dXJl' },
}

const admission = {
  lawDigest: hex('7'),
  proofObject: { exactBytesB64u: 'iVBORw0KGgo', filename: 'action.png', mimeType: 'image/png' },
  expectedPriorAdmissionDigest: null,
  idempotencyKey: 'admit-1',
}

const decodes = (codec: t.Any, value: unknown) => isRight(codec.decode(value))

describe('runtime decoding', () => {
  it('V124TransportBinding: accepts a binding, rejects a wrong method, a bad digest or a missing authority', () => {
    const codec = runtimeComponents.V124TransportBinding
    expect(decodes(codec, transportBinding)).toBe(true)
    expect(decodes(codec, { ...transportBinding, method: 'PUT' })).toBe(false)
    expect(decodes(codec, { ...transportBinding, requestDigest: hex('A') })).toBe(false)
    expect(decodes(codec, { ...transportBinding, authority: { ...RUNTIME_AUTHORITY, proofAuthority: true } })).toBe(false)
    const { authority: _dropped, ...withoutAuthority } = transportBinding
    expect(decodes(codec, withoutAuthority)).toBe(false)
  })

  it('V124OperationPlan: accepts a plan, rejects writes on failure, a fractional head map or a bad idempotency key', () => {
    const codec = runtimeComponents.V124OperationPlan
    expect(decodes(codec, operationPlan)).toBe(true)
    expect(decodes(codec, { ...operationPlan, writesOnFailure: 1 })).toBe(false)
    expect(decodes(codec, { ...operationPlan, expectedParticipantHeads: { alice: 'not-a-head' } })).toBe(false)
    expect(decodes(codec, { ...operationPlan, semanticIdempotencyKey: 'has/slash' })).toBe(false)
  })

  it('V124SignedExecutionStageEnvelope: accepts a signed handle, rejects a foreign schema string or wire', () => {
    const codec = runtimeComponents.V124SignedExecutionStageEnvelope
    expect(decodes(codec, stageEnvelope)).toBe(true)
    expect(decodes(codec, { ...stageEnvelope, schema: 'cairn.v124.signed_execution_cancel_envelope' })).toBe(false)
    expect(decodes(codec, { ...stageEnvelope, wire: operationPlan })).toBe(false)
    expect(decodes(codec, { ...stageEnvelope, transportSignature: { ...stageEnvelope.transportSignature, alg: 'none' } })).toBe(false)
  })

  it('V125LawfulActionAdmissionRequest: accepts a first admission, rejects bad bytes or a missing law digest', () => {
    const codec = runtimeComponents.V125LawfulActionAdmissionRequest
    expect(decodes(codec, admission)).toBe(true)
    expect(decodes(codec, { ...admission, expectedPriorAdmissionDigest: hex('8') })).toBe(true)
    expect(decodes(codec, { ...admission, proofObject: { ...admission.proofObject, exactBytesB64u: 'not base64url!' } })).toBe(false)
    const { lawDigest: _dropped, ...withoutLaw } = admission
    expect(decodes(codec, withoutLaw)).toBe(false)
  })

  it('V124PrivateDomainAddition tells encrypted from public by additionKind', () => {
    const publicAddition = {
      additionKind: 'public',
      appendId: 'append-1',
      sequence: 0,
      cursor: 'c0',
      exactPublicEventBytesB64u: 'e30',
      eventDigest: hex('9'),
      priorHead: null,
      newHead: hex('a'),
      domainHead: hex('a'),
    }
    expect(decodes(runtimeComponents.V124PrivateDomainAddition, publicAddition)).toBe(true)
    expect(decodes(runtimeComponents.V124PrivateDomainAddition, { ...publicAddition, additionKind: 'encrypted' })).toBe(false)
  })
})
