/**
 * The `/api/sdk/v1/` components whose names carry no V124 prefix: granted scopes, the
 * proof-authority exchange, subject namespace resolution and Φ value execution. They share the
 * runtime's conventions: digests and heads are `V124Digest` (lowercase hex SHA-256), artifacts and
 * challenges are the runtime components, `authority` is the shared RuntimeAuthority statement.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { RuntimeAuthority } from './runtime/authority.js'
import { V124ProofAuthorityChallenge } from './runtime/authority-sessions.js'
import { V124Digest } from './runtime/digests.js'
import { V124DomainNamespaceProjection } from './runtime/domains.js'
import { V124PortableSealedArtifact } from './runtime/sources.js'
import {
  DecimalString, IsoTimestamp, JsonObject, KaiUPulse, NonEmptyString, NonNegativeInteger,
} from '../primitives.js'

/** Scopes granted to the calling application authority. */
export const GrantedScopesResponse = struct(
  'GrantedScopesResponse',
  { schema: t.literal('cairn.granted_scopes.v1'), grantedScopes: t.array(NonEmptyString), applicationId: NonEmptyString },
  { ok: t.literal(true) },
  'Scopes granted to the current application authority, exactly as the token carries them.',
)

/** Identity proof object plus in-application consent, exchanged for a minimum-scope token. */
export const ProofAuthorityExchangeRequest = struct(
  'ProofAuthorityExchangeRequest',
  { artifact: V124PortableSealedArtifact, challenge: V124ProofAuthorityChallenge, applicationId: NonEmptyString, scopes: t.array(NonEmptyString) },
  { audience: NonEmptyString },
  'Proof-authority exchange. `artifact` is the identity proof object as exact bytes; `challenge` is the signed V124ProofAuthorityChallenge carrying the explicit in-application consent; `scopes` are the scopes asked for (the grant is their minimum the proof and consent support).',
)

/** Short-lived, non-refreshable, minimum-scope access token bound to one proof object. */
export const ProofAuthorityExchangeResponse = struct(
  'ProofAuthorityExchangeResponse',
  {
    schema: t.literal('cairn.proof_authority_exchange.v1'),
    applicationId: NonEmptyString,
    artifactDigest: V124Digest,
    grantedScopes: t.array(NonEmptyString),
    authorityDigest: V124Digest,
    accessToken: NonEmptyString,
    expiresIn: NonNegativeInteger,
    refreshable: t.literal(false),
    authority: RuntimeAuthority,
  },
  { tokenType: t.keyof({ Bearer: null, DPoP: null }), audience: NonEmptyString },
  'Exchange result. `expiresIn` in seconds; `refreshable` is always false; `authority` states what the token is for (delegated access) and that it is not identity or proof authority; `authorityDigest` binds the grant; `tokenType` is `DPoP` when the application sent a DPoP proof, which the token is then bound to (`cnf.jkt`).',
)

/** Resolve named namespaces of one subject at one exact head. */
export const SubjectNamespaceResolutionRequest = struct(
  'SubjectNamespaceResolutionRequest',
  { atHead: V124Digest, names: t.array(NonEmptyString) },
  { applicationId: NonEmptyString, expectedRegistryDigest: V124Digest, expectedReducerDigest: V124Digest },
  'Namespace resolution at `atHead`. When `expectedRegistryDigest`/`expectedReducerDigest` are given they are pinned: a mismatch is refused instead of answered.',
)

/** Byte-exact namespace projections at the requested head. */
export const SubjectNamespaceResolutionResponse = struct(
  'SubjectNamespaceResolutionResponse',
  {
    ok: t.literal(true),
    subjectId: NonEmptyString,
    atHead: V124Digest,
    registryDigest: V124Digest,
    reducerDigest: V124Digest,
    namespaces: t.array(V124DomainNamespaceProjection),
    authenticationDigest: V124Digest,
  },
  { authority: RuntimeAuthority },
  'Resolved namespaces, each as exact bytes with its digest and head. `authenticationDigest` binds subject, head, registry, reducer and every projection, so the answer can be checked as one unit.',
)

const PhiValueIntent = struct(
  'PhiValueIntent',
  { schema: NonEmptyString, idempotencyKey: NonEmptyString },
  { amountPhiMicro: DecimalString, counterpartySubjectId: NonEmptyString, expectedPriorHead: V124Digest, memo: t.string },
)

/** One canonical Reserve or Settlement intent plus the authority that allows it. */
export const PhiValueExecutionRequest = struct(
  'PhiValueExecutionRequest',
  { intent: PhiValueIntent, authorityDigest: V124Digest },
  { applicationId: NonEmptyString },
  'Value execution. The intent is hashed in its RFC 8785 canonical form; `intent.idempotencyKey` recovers the outcome before any retry. Amounts are micro-Φ decimal strings.',
)

/** Committed, zero-write or unknown outcome of a value execution. */
export const PhiValueExecutionOutcome = struct(
  'PhiValueExecutionOutcome',
  {},
  {
    ok: t.boolean,
    status: t.keyof({ committed: null, 'zero-write': null, unknown: null }),
    idempotencyKey: NonEmptyString,
    intentDigest: V124Digest,
    receipt: JsonObject,
    receiptDigest: V124Digest,
    reasonCode: t.string,
    writes: NonNegativeInteger,
    terminalAt: IsoTimestamp,
    terminalAtKaiUPulse: KaiUPulse,
  },
  'Value execution outcome. `committed` carries `receipt`; `zero-write` carries `reasonCode` and `writes` (always 0); `unknown` means retry only after looking the idempotency key up again.',
)

export const sdkComponents = {
  GrantedScopesResponse, ProofAuthorityExchangeRequest, ProofAuthorityExchangeResponse, SubjectNamespaceResolutionRequest,
  SubjectNamespaceResolutionResponse, PhiValueExecutionRequest, PhiValueExecutionOutcome,
} as const
