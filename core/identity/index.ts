/**
 * Identity: ID proofs, sessions, login bootstrap and the public action ledger feed. The lead wires
 * `identityUseCases` into core/usecases/registry.ts and `identityCollections` into
 * core/usecases/collections.ts.
 */
import type { CollectionSpec } from '../../ports/store.js'
import { getActionLedger } from '../ledger/action-ledger-feed.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { continueCairnId } from './continue-cairn-id.js'
import { idProofChallengesCollection } from './id-proof-challenges.js'
import { identitiesCollection } from './identities.js'
import { identityKeysCollection } from './identity-keys.js'
import { getLoginBootstrap } from './login-bootstrap.js'
import { sessionsCollection } from './sessions.js'

/** @example const useCases = { ...identityUseCases } */
export const identityUseCases = { continueCairnId, getLoginBootstrap, getActionLedger } as const satisfies UseCaseRegistry

import { linkCodesCollection } from './link-codes.js'

/** @example await store.declare(identityCollections) */
export const identityCollections: readonly CollectionSpec[] = [identitiesCollection, identityKeysCollection, sessionsCollection, idProofChallengesCollection, linkCodesCollection]

export { continueCairnId } from './continue-cairn-id.js'
export { getLoginBootstrap, oidcLaunchConfiguration } from './login-bootstrap.js'
export { getActionLedger, readActionLedger } from '../ledger/action-ledger-feed.js'
export { ID_PROOF_PURPOSE, idProofMessage, idProofMessageBytes, type IdProofFields, type IdContinueRequest } from './id-proof-message.js'
export { jwkThumbprint, publicKeyFromRaw, type IdProofAlg, type PublicKeyJwk } from './public-key.js'
export { verifyIdProof, ID_PROOF_MAX_SKEW_MS, type VerifiedIdProof } from './verify-id-proof.js'
export { endSession, findActiveSession, newSession, sessionIdOf, SESSION_LIFETIME_MS, SESSIONS, type SessionRecord } from './sessions.js'
export { SESSION_COOKIE_NAME, sessionCookie, clearedSessionCookie } from './session-cookie.js'
export { normaliseUsername } from './username.js'
export * from './identities.js'
export { unbindKey, type UnbindKeyResult } from './unbind-key.js'
export { FRESH_SIGN_IN_MS, isFreshSignIn } from './fresh-sign-in.js'
export { sessionCookieName, HOST_SESSION_COOKIE_NAME } from './session-cookie.js'
