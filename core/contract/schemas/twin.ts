/**
 * Twin components under Connect (scopes `cairn:twin.*`): the market mandate and intents, the
 * public promotion approval, and the Twin mind artifact (a signed PNG).
 */
import * as t from 'io-ts'
import { alias, struct } from '../define.js'
import { DecimalString, IsoTimestamp, JsonObject, NonEmptyString, NonNegativeInteger, Sha256Hex, UploadedFile } from '../primitives.js'

const MandateFields = {
  enabled: t.boolean,
  requireApproval: t.boolean,
  maxOrderUsdCents: DecimalString,
  dailyLimitUsdCents: DecimalString,
  allowedMarketIds: t.array(NonEmptyString),
  riskLevel: t.keyof({ low: null, medium: null, high: null }),
}

/** Limits within which the Twin may trade; every property optional (a partial update). */
export const SaveTwinMarketMandateInput = struct(
  'SaveTwinMarketMandateInput',
  {},
  MandateFields,
  'Market mandate fields to save (PATCH) or the read filter (GET+body, ignored). Absent properties keep their value. Limits are decimal strings in US cents.',
)

const TwinMarketMandate = struct('TwinMarketMandate', {}, { ...MandateFields, updatedAt: IsoTimestamp })

/** The saved mandate, or null when none was saved. */
export const TwinMarketMandateResponse = struct(
  'TwinMarketMandateResponse',
  { ok: t.literal(true), mandate: t.union([TwinMarketMandate, t.null]) },
  {},
  'Current market mandate; `mandate` is null until one is saved.',
)

const Side = t.keyof({ buy: null, sell: null })

/** A new intent to trade in one market; it starts `pending` until approved. */
export const CreateTwinMarketIntentInput = struct(
  'CreateTwinMarketIntentInput',
  { marketId: NonEmptyString, side: Side },
  { amountUsdCents: DecimalString, limitPrice: DecimalString, note: t.string },
  'Market intent (POST) or list filter (GET+body). Amounts are decimal strings in US cents; the intent is created `pending` and is checked against the mandate.',
)

const TwinMarketIntent = struct(
  'TwinMarketIntent',
  { id: NonEmptyString, marketId: NonEmptyString, side: Side, status: t.keyof({ pending: null, approved: null, rejected: null }), createdAt: IsoTimestamp },
  { amountUsdCents: DecimalString, limitPrice: DecimalString, note: t.string, decidedAt: IsoTimestamp, reason: t.string },
)

/** One intent after approval (or refusal by the mandate's risk checks). */
export const TwinMarketIntentResponse = struct(
  'TwinMarketIntentResponse',
  { ok: t.literal(true), intent: TwinMarketIntent },
  {},
  'Intent after approval. Approval never bypasses mandate risk checks: a failing check leaves it `rejected` with a `reason`.',
)

/** Intents of the Twin (GET) or the one just created (POST). */
export const TwinMarketIntentsResponse = struct(
  'TwinMarketIntentsResponse',
  { ok: t.literal(true) },
  { intents: t.array(TwinMarketIntent), intent: TwinMarketIntent },
  'Intents, newest first (GET); POST also returns the created `intent`.',
)

/** Ask for public promotion of the Twin on its recorded performance. */
export const TwinPromotionApprovalInput = struct(
  'TwinPromotionApprovalInput',
  { performance: JsonObject },
  { note: t.string },
  'Promotion request. `performance` is the performance summary the promotion is judged on (metrics as the Twin reports them); the owner needs the automation entitlement.',
)

const TwinApproval = struct(
  'TwinApproval',
  { status: t.keyof({ pending: null, approved: null, rejected: null }) },
  { entitled: t.boolean, performance: JsonObject, decidedAt: IsoTimestamp, reason: t.string },
)

/** Promotion approval state, or null when never requested. */
export const TwinApprovalResponse = struct(
  'TwinApprovalResponse',
  { ok: t.literal(true), twinApproval: t.union([TwinApproval, t.null]) },
  {},
  'Public Twin promotion state; null when no promotion was requested.',
)

/** Multipart body: the Twin mind PNG artifact to inspect (GET) or import (POST). */
export const TwinMindImportRequest = struct(
  'TwinMindImportRequest',
  { mind: UploadedFile },
  {},
  'multipart/form-data body: `mind` is a Twin mind artifact (image/png) as exported; its signature is verified before anything is read or imported.',
)

const TwinMindImportSummary = struct(
  'TwinMindImportSummary',
  { artifactSha256: Sha256Hex, verified: t.boolean, imported: t.boolean },
  { keyId: NonEmptyString, exportedAt: IsoTimestamp, entries: NonNegativeInteger, warnings: t.array(t.string) },
)

/** What the mind artifact holds and whether it was imported. */
export const TwinMindImportSummaryResponse = struct(
  'TwinMindImportSummaryResponse',
  { ok: t.literal(true), summary: TwinMindImportSummary },
  {},
  'Import summary. `verified` reports the artifact signature; `imported` is false for the GET inspection and for unverified artifacts.',
)

/** The exported Twin mind: exact PNG bytes with the signed mind embedded. */
export const TwinMindArtifactPng = alias('TwinMindArtifactPng', t.string, {
  type: 'string',
  format: 'binary',
  contentMediaType: 'image/png',
  description: 'Twin mind artifact: a PNG whose exact bytes carry the signed mind. Keep the bytes as received.',
})

export const twinComponents = {
  SaveTwinMarketMandateInput, CreateTwinMarketIntentInput, TwinMarketMandateResponse, TwinMarketIntentResponse, TwinMarketIntentsResponse,
  TwinPromotionApprovalInput, TwinApprovalResponse, TwinMindImportRequest, TwinMindImportSummaryResponse, TwinMindArtifactPng,
} as const
