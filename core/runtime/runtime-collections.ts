/**
 * The Store collections of the Universal Runtime: used proof-consent challenges (one-use nonces),
 * authority sessions, subjects' published sealed sources and recipient aliases with their one-use
 * locators, staged executions with their idempotency coordinates and the participant heads they
 * move. Every expiring record carries `expiresAtMs` and an index `byExpiresAt`, so the sweeper
 * removes it once it can no longer change an answer (core/retention/expiry-rules.ts).
 */
import type { CollectionSpec } from '../../ports/store.js'

/** Used challenge nonces, keyed by SHA-256 of the nonce; kept until the challenge expired. */
export const RUNTIME_CHALLENGES = 'runtime_challenges'
/** Authority sessions, keyed by SHA-256 of the handle (the handle itself is never stored). */
export const AUTHORITY_SESSIONS = 'runtime_authority_sessions'

/** Sources a subject published, keyed by SHA-256 of subject and artifact digest: publication is idempotent. */
export const SUBJECT_SOURCES = 'runtime_subject_sources'
/** Consented public recipient aliases, keyed by the normalised alias. */
export const RECIPIENT_ALIASES = 'runtime_recipient_aliases'
/** One-use recipient locators, keyed by their digest; kept until they expire. */
export const RECIPIENT_LOCATORS = 'runtime_recipient_locators'

/** Staged executions, keyed by application and execution id; kept for good (they answer idempotent retries). */
export const EXECUTIONS = 'runtime_executions'
/** Idempotency coordinates (application, domain, operation kind, semantic key) → the execution they resolve to now. */
export const EXECUTION_COORDINATES = 'runtime_execution_coordinates'
/** Participant heads executions compare-and-swap, one document per participant (core/runtime/participant-heads.ts). */
export const PARTICIPANT_HEADS = 'runtime_participant_heads'

// Each spec is typed with its record's codec where the record is declared (authority-session-record.ts, …).
export const runtimeChallengesSpec: CollectionSpec = { name: RUNTIME_CHALLENGES, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }
export const authoritySessionsSpec: CollectionSpec = {
  name: AUTHORITY_SESSIONS,
  indexes: [
    { name: 'byExpiresAt', fields: ['expiresAtMs'] }, { name: 'byApplication', fields: ['applicationId', 'issuedAtMs'] },
    // value execution names its authority by the session's binding digest (`authorityDigest`)
    { name: 'byBinding', fields: ['sessionBindingDigest'] },
  ],
}
export const subjectSourcesSpec: CollectionSpec = { name: SUBJECT_SOURCES, indexes: [{ name: 'bySubject', fields: ['subjectId', 'publishedAtMs'] }] }
export const recipientAliasesSpec: CollectionSpec = { name: RECIPIENT_ALIASES, indexes: [{ name: 'bySubject', fields: ['subjectId'] }] }
export const recipientLocatorsSpec: CollectionSpec = { name: RECIPIENT_LOCATORS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }
export const executionsSpec: CollectionSpec = { name: EXECUTIONS, indexes: [{ name: 'byApplication', fields: ['applicationId', 'stagedAtMs'] }] }
export const executionCoordinatesSpec: CollectionSpec = { name: EXECUTION_COORDINATES, indexes: [{ name: 'byApplication', fields: ['applicationId'] }] }
export const participantHeadsSpec: CollectionSpec = { name: PARTICIPANT_HEADS, indexes: [{ name: 'byApplication', fields: ['applicationId', 'participantId'] }] }

export const runtimeCollections: readonly CollectionSpec[] = [
  runtimeChallengesSpec, authoritySessionsSpec, subjectSourcesSpec, recipientAliasesSpec, recipientLocatorsSpec, executionsSpec, executionCoordinatesSpec, participantHeadsSpec,
]
