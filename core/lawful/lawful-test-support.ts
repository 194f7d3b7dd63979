/**
 * Test support for the Lawful Economy: laws and lawful actions sealed as their owners' proof
 * objects (JSON carrier, RFC 8785 payload), bearer principals of a runtime application, and a
 * snapshot of everything a lawful call can write, to prove a refusal wrote nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Principal } from '../auth/principal.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256OfJson } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { sealArtifact } from '../proof/seal-artifact.js'
import { LOG_LEAF_STREAM } from '../tlog/sequence.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { VALUE_ACCOUNTS } from '../value/accounts.js'
import { VALUE_ENTRIES } from '../value/ledger-entry.js'
import { LAW_SCHEMA, LAWFUL_ACTION_SCHEMA, type Law, type LawfulAction } from './payloads.js'
import { LAWFUL_ADMISSIONS, LAWFUL_CUSTODY, LAWFUL_LAWS, LAWFUL_MEMBERSHIPS, LAWFUL_VALUE_HEADS } from './records.js'

export const LAWFUL_APP = 'com.example.notes'

export const lawOf = (overrides: Partial<Law> = {}): Law => ({
  schema: LAW_SCHEMA, lawId: 'care-hours', title: 'Care work, paid by the pulse', ratePhiMicroPerPulse: '7', maxPulsesPerAction: 10_000, ...overrides,
})

export const actionOf = (lawDigest: string, fields: Partial<LawfulAction> & Pick<LawfulAction, 'startedAtKaiPulse' | 'completedAtKaiPulse' | 'custodianUserId'>): LawfulAction => ({
  schema: LAWFUL_ACTION_SCHEMA, lawDigest, actionId: 'visit-1', priorAdmissionDigest: null, ...fields,
})

/** The digest a law or action payload gets: SHA-256 of its canonical JSON. */
export const payloadDigest = (value: unknown) => sha256OfJson(value)

/** Seals `payload` (canonical JSON, or the exact text given) as `userId`'s proof object; answers its base64url bytes. */
export async function sealJsonFor(deps: CoreDeps, userId: string, payload: unknown, options: { text?: string; integrityOnly?: boolean } = {}): Promise<string> {
  const bytes = options.text === undefined ? canonicalJsonBytes(payload) : new TextEncoder().encode(options.text)
  const sealed = await sealArtifact(deps, { filename: 'lawful.json', mimeType: 'application/json', bytes }, options.integrityOnly
    ? { sealKind: 'integrity-seal', actorUserId: null }
    : { sealKind: 'proof-object', owner: { userId, username: userId.replace(/^usr_/, '') }, actorUserId: userId })
  if (E.isLeft(sealed)) throw new Error(sealed.left.message)
  return toBase64Url(sealed.right.bytes)
}

export const proofObjectOf = (exactBytesB64u: string) => ({ exactBytesB64u, filename: 'lawful.json', mimeType: 'application/json' })

/** A runtime application's bearer acting for `userId`. */
export const lawfulBearer = (userId: string, scopes: readonly string[] = ['cairn:lawful.write']): Principal => ({
  kind: 'bearer', actsAsClient: true, subject: userId, clientId: LAWFUL_APP, tokenId: `tok_${userId}`, businessTier: false, scopes: [...scopes],
})

const COLLECTIONS: readonly (readonly [string, string])[] = [
  [LAWFUL_LAWS, 'byOwner'], [LAWFUL_ADMISSIONS, 'byLaw'], [LAWFUL_CUSTODY, 'byCustodian'], [LAWFUL_MEMBERSHIPS, 'byHolder'], [LAWFUL_VALUE_HEADS, 'byMembership'],
  [VALUE_ENTRIES, 'byCreatedAt'], [VALUE_ACCOUNTS, 'byUnit'],
]

/** Everything a lawful call may write: its records, the ledger, the log and action streams. */
export async function lawfulSnapshot(deps: Pick<CoreDeps, 'store'>): Promise<string> {
  const parts: unknown[] = []
  for (const [collection, index] of COLLECTIONS) {
    parts.push(collection, (await deps.store.query(collection, { index, limit: 1000 })).items.map((doc) => [doc.key, doc.version]))
  }
  for (const stream of [LOG_LEAF_STREAM, ACTION_LEDGER_STREAM]) parts.push(stream, (await deps.store.streamHead(stream))?.head ?? null)
  return JSON.stringify(parts)
}
