/**
 * Authority sessions from the client: open one with a ProofConsent challenge the person's ID key
 * signs, refresh it from a fresh challenge with exactly the bindings it holds, close it (which
 * appends a revocation). Each call answers the session's wire from a signed envelope the client
 * has verified (docs/runtime.md, Authority sessions).
 */
import type { ComponentType } from '../core/contract/components.js'
import type { ProofAuthorityChallenge } from '../core/runtime/challenge-signing.js'
import type { CairnClient } from './cairn-client.js'
import { signProofConsentChallenge } from './identity.js'
import { wireOf, type Result } from './result.js'
import type { BodyOf } from './types.js'

export type AuthoritySession = ComponentType<'V124AuthoritySession'>
export type ClosedAuthoritySession = ComponentType<'V124AuthoritySessionClosed'>
type PortableArtifact = ComponentType<'V124PortableSealedArtifact'>

/** What signs the challenge: an `IdKey` (`loadOrCreateIdKey`) bound to the person. */
export interface ChallengeSigner {
  readonly keyId: string
  readonly alg: 'ES256' | 'EdDSA'
  sign(bytes: Uint8Array): Promise<Uint8Array>
}

/** The terms of a session, as plain inputs. */
export interface SessionTerms {
  readonly applicationId: string
  /** Who the session is for (your app's origin, say); capabilities of plans executed under it name it. @default applicationId */
  readonly audience?: string
  /** The person (`usr_…`): the owner of `identityArtifact` and the subject of the access token. */
  readonly actorSubjectId: string
  /** A sealed proof object the person owns (`portableArtifactOf(await sealFile(…, { owned: true }))`). */
  readonly identityArtifact: PortableArtifact
  /** The subject source the session is bound to. @default identityArtifact */
  readonly subjectSourceArtifact?: PortableArtifact
  readonly rails?: readonly string[]
  /** Namespaces the session is bound to at their current heads. */
  readonly requiredNamespaces?: readonly string[]
}

/** The consent the person gave in the application: what they were shown and the scopes it covers. */
export interface SessionConsent {
  readonly scopes: readonly string[]
  readonly statement: string
}

/** How a session request names its identity artifact: the exact bytes and their digest. */
const artifactReference = (artifact: PortableArtifact) => ({ exactBytesB64u: artifact.exactBytesB64u, digest: artifact.artifactSha256 })

/** The body of `openAuthoritySession` for `terms` with a challenge already signed for them (pure). */
export function openSessionBody(terms: SessionTerms, signedChallenge: ProofAuthorityChallenge): BodyOf<'openAuthoritySession'> {
  const { identityArtifact } = terms
  return {
    applicationId: terms.applicationId, actorSubjectId: terms.actorSubjectId,
    artifact: artifactReference(identityArtifact),
    subjectSourceArtifact: terms.subjectSourceArtifact ?? identityArtifact, signedChallenge,
    requestedRails: [...(terms.rails ?? [])], requiredNamespaces: [...(terms.requiredNamespaces ?? [])], audience: terms.audience ?? terms.applicationId,
  }
}

/**
 * Opens a session: signs a fresh ProofConsent challenge for the audience with `key`, sends it with
 * the identity artifact under the client's bearer token (which must hold `cairn:runtime.session`
 * and every consented scope).
 *
 * @example const session = unwrap(await openAuthoritySession(cairn, key, { applicationId, actorSubjectId: userId, identityArtifact }, { scopes: ['cairn:runtime.session', 'cairn:runtime.execute'], statement: 'Allow Notes to write for ada' }))
 */
export async function openAuthoritySession(client: CairnClient, key: ChallengeSigner, terms: SessionTerms, consent: SessionConsent): Promise<Result<AuthoritySession>> {
  const challenge = await signProofConsentChallenge(key, { audience: terms.audience ?? terms.applicationId, scopes: consent.scopes, statement: consent.statement }, client.now())
  return wireOf<AuthoritySession>(await client.call('openAuthoritySession', { body: openSessionBody(terms, challenge) }))
}

/**
 * Replaces `session` by a new one from a fresh challenge: the same application, audience, scopes,
 * rails, namespaces, identity artifact and owner (the server refuses any difference), and the
 * prior session's bindings exactly as held.
 */
export async function refreshAuthoritySession(
  client: CairnClient, key: ChallengeSigner, session: AuthoritySession, input: { readonly identityArtifact: PortableArtifact; readonly statement: string },
): Promise<Result<AuthoritySession>> {
  const challenge = await signProofConsentChallenge(key, { audience: session.audience, scopes: session.grantedScopes, statement: input.statement }, client.now())
  const { schema: _schema, status: _status, authoritySessionHandle, applicationId, audience, runtimeReceiptDigest: _receipt, authority: _authority, ...expectedPriorSession } = session
  return wireOf<AuthoritySession>(await client.call('refreshAuthoritySession', {
    body: {
      applicationId, authoritySessionHandle, audience, signedChallenge: challenge, expectedPriorSession,
      artifact: artifactReference(input.identityArtifact),
      requestedRails: [...session.grantedRails], requiredNamespaces: session.namespaces.map((ns) => ns.name),
    },
  }))
}

/**
 * Closes `session`, appending its revocation after the application's revocation head. The head
 * the session was bound to is tried first; when another close moved it (409), the current head is
 * read from a verified `qualifyOperations` answer (its receipt's `revocationHead`) and the close is
 * sent once more — the usual compare-and-swap loop; a session already closed stays refused.
 */
export async function closeAuthoritySession(client: CairnClient, session: AuthoritySession): Promise<Result<ClosedAuthoritySession>> {
  const close = (expectedPriorRevocationHead: string) => client.call('closeAuthoritySession', {
    body: { applicationId: session.applicationId, authoritySessionHandle: session.authoritySessionHandle, expectedPriorRevocationHead, expectedPriorSessionBindingDigest: session.sessionBindingDigest },
    expectAudience: session.audience,
  })
  const first = await close(session.revocationHead)
  if (first.ok || first.error._tag !== 'Conflict') return wireOf<ClosedAuthoritySession>(first)
  const qualified = await client.call('qualifyOperations', { body: { applicationId: session.applicationId, operations: [] } })
  if (!qualified.ok || qualified.value.receipt.revocationHead === session.revocationHead) return wireOf<ClosedAuthoritySession>(first)
  return wireOf<ClosedAuthoritySession>(await close(qualified.value.receipt.revocationHead))
}
