/**
 * Authority sessions: short-lived, server-custodied, bound to application, audience, scopes,
 * proof, owner, revocation head and exact namespace heads. A session handle never becomes identity
 * or proof authority; closing one appends a revocation.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { Base64Url, KaiUPulse, NonEmptyString, Sha256Hex } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { V124ExactIdentityArtifact, V124PortableSealedArtifact } from './sources.js'
import { Audience, KeyId, Nonce, OpaqueHandle, RuntimeId, ScopeName, SignatureAlgorithm, Slug } from './values.js'

/** A namespace's exact head as the session was bound to it. */
export const V124AuthorityNamespaceHead = struct(
  'V124AuthorityNamespaceHead',
  { name: Slug, head: V124Digest, digest: V124Digest },
  {},
  'A namespace name with the head and body digest an authority session is bound to.',
)

/** Signature of an identity key over a challenge (both base64url). */
export const V124IdentityLoginProof = struct(
  'V124IdentityLoginProof',
  {
    schema: t.literal('cairn.v124.identity_login_proof'),
    keyId: KeyId,
    alg: SignatureAlgorithm,
    challengeB64Url: Base64Url,
    signatureB64Url: Base64Url,
  },
  {},
  'Identity key signature over the exact challenge bytes (RFC 8785 canonical JSON of the challenge without `proof`).',
)

/**
 * The in-application consent the person gave: the exact statement shown and the scopes it covers.
 * Inline (not a component); the identity proof signs over it as part of the challenge.
 */
const Consent = t.type({ statement: NonEmptyString, scopes: t.array(ScopeName) }, 'V124Consent')

/** A fresh challenge with the person's consent and the identity proof over it. */
export const V124ProofAuthorityChallenge = struct(
  'V124ProofAuthorityChallenge',
  {
    schema: t.literal('cairn.v124.proof_authority_challenge'),
    audience: Audience,
    nonce: Nonce,
    issuedAtKai: KaiUPulse,
    expiresAtKai: KaiUPulse,
    consent: Consent,
    proof: V124IdentityLoginProof,
  },
  {},
  'Fresh challenge (Kai μpulse window, one-use nonce) with the consent shown in the application and the identity proof signing it.',
)

/** Open a session after proof verification, consent, exact scope binding and head checks. */
export const V124OpenAuthoritySessionRequest = struct(
  'V124OpenAuthoritySessionRequest',
  {
    applicationId: V124ApplicationId,
    actorSubjectId: RuntimeId,
    artifact: V124ExactIdentityArtifact,
    subjectSourceArtifact: V124PortableSealedArtifact,
    signedChallenge: V124ProofAuthorityChallenge,
    requestedRails: t.array(Slug),
    requiredNamespaces: t.array(Slug),
    audience: Audience,
  },
  {},
  'Open a short-lived authority session: identity artifact, subject source artifact, a signed fresh challenge, requested rails and required namespaces.',
)

/** What binds an authority session: owner, proof, key, scope, rails, heads, revocation and lifetime. */
const SESSION_BINDINGS = {
    actorSubjectId: RuntimeId,
    subjectSourceArtifactSha256: Sha256Hex,
    identityArtifactSha256: Sha256Hex,
    identityKeyId: KeyId,
    grantedScopes: t.array(ScopeName),
    grantedRails: t.array(Slug),
    namespaces: t.array(V124AuthorityNamespaceHead),
    revocationHead: V124Digest,
    issuedAtKaiUPulse: KaiUPulse,
    expiresAtKaiUPulse: KaiUPulse,
    sessionBindingDigest: V124Digest,
} as const

/** The session a refresh expects to replace; every binding must be identical. */
export const V124ExpectedPriorAuthoritySession = struct(
  'V124ExpectedPriorAuthoritySession',
  {
    ...SESSION_BINDINGS,
  },
  {},
  'The bindings of the session being refreshed, as the caller holds them; any difference refuses the refresh.',
)

/** Refresh only from a fresh challenge with identical bindings. */
export const V124RefreshAuthoritySessionRequest = struct(
  'V124RefreshAuthoritySessionRequest',
  {
    applicationId: V124ApplicationId,
    authoritySessionHandle: OpaqueHandle,
    artifact: V124ExactIdentityArtifact,
    signedChallenge: V124ProofAuthorityChallenge,
    requestedRails: t.array(Slug),
    requiredNamespaces: t.array(Slug),
    audience: Audience,
    expectedPriorSession: V124ExpectedPriorAuthoritySession,
  },
  {},
  'Refresh an authority session from a fresh challenge; application, audience, scopes, proof, owner, revocation and heads must match the prior session.',
)

/** Close a session: appends its revocation. */
export const V124CloseAuthoritySessionRequest = struct(
  'V124CloseAuthoritySessionRequest',
  {
    applicationId: V124ApplicationId,
    authoritySessionHandle: OpaqueHandle,
    expectedPriorRevocationHead: V124Digest,
    expectedPriorSessionBindingDigest: V124Digest,
  },
  {},
  'Close an authority session by appending its revocation after the expected revocation head.',
)

/** The active form of a session (status `active`). */
export const V124AuthoritySession = struct(
  'V124AuthoritySession',
  {
    schema: t.literal('cairn.v124.authority_session'),
    status: t.literal('active'),
    authoritySessionHandle: OpaqueHandle,
    applicationId: V124ApplicationId,
    audience: Audience,
    ...SESSION_BINDINGS,
    runtimeReceiptDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'An active authority session. The handle is coordination only, never identity or proof authority.',
)

/** The closed form of a session (status `closed`). */
export const V124AuthoritySessionClosed = struct(
  'V124AuthoritySessionClosed',
  {
    schema: t.literal('cairn.v124.authority_session_closed'),
    status: t.literal('closed'),
    authoritySessionHandle: OpaqueHandle,
    applicationId: V124ApplicationId,
    audience: Audience,
    revocationHead: V124Digest,
    closedAtKaiUPulse: KaiUPulse,
    sessionBindingDigest: V124Digest,
    runtimeReceiptDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'A closed authority session; `revocationHead` is the head after the appended revocation.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const authoritySessionComponents = {
  V124AuthorityNamespaceHead,
  V124IdentityLoginProof,
  V124ProofAuthorityChallenge,
  V124OpenAuthoritySessionRequest,
  V124ExpectedPriorAuthoritySession,
  V124RefreshAuthoritySessionRequest,
  V124CloseAuthoritySessionRequest,
  V124AuthoritySession,
  V124AuthoritySessionClosed,
} as const
