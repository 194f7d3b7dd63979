/**
 * Signal Circuit and Sports components: conformance reports, badges, history and rollups, the
 * odds simulation and the sports card manifest. Other Signal routes answer the open
 * SignalCircuitResponse.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import {
  DecimalString, IsoTimestamp, JsonObject, NonEmptyString, NonNegativeInteger, patternString, Sha256Hex, UrlString,
} from '../primitives.js'

const Status = t.keyof({ pass: null, fail: null })
const Count = NonNegativeInteger
const CalendarDate = patternString('CalendarDate', /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { format: 'date' })

const Check = struct('ConformanceCheck', { id: NonEmptyString, passed: t.boolean }, { title: t.string, detail: t.string })

const reportFields = {
  schema: NonEmptyString,
  generatedAt: IsoTimestamp,
  status: Status,
  passed: Count,
  failed: Count,
  total: Count,
  checks: t.array(Check),
  revision: NonEmptyString,
  sourceDigest: Sha256Hex,
}

/** Live Signal Circuit conformance report. */
export const SignalCircuitConformanceResponse = struct(
  'SignalCircuitConformanceResponse',
  { ok: t.literal(true) },
  reportFields,
  'Signal Circuit conformance: every check with its result, anchored to a source `revision` and `sourceDigest`. A failing report is still `ok: true` with `status: fail`.',
)

/** Live Sports conformance report. */
export const SportsConformanceResponse = struct(
  'SportsConformanceResponse',
  { ok: t.literal(true) },
  reportFields,
  'Sports conformance: every check with its result, anchored to a source `revision` and `sourceDigest`.',
)

/** A conformance badge in the shields.io endpoint format. */
export const ConformanceBadgeResponse = struct(
  'ConformanceBadgeResponse',
  { ok: t.literal(true) },
  { schemaVersion: t.literal(1), label: t.string, message: t.string, color: t.string, status: Status },
  'Badge: `schemaVersion`, `label`, `message` and `color` follow the shields.io endpoint badge schema, so the route can be used as a badge source directly.',
)

const Snapshot = struct(
  'ConformanceSnapshot',
  { generatedAt: IsoTimestamp, status: Status, passed: Count, failed: Count, total: Count },
  { revision: NonEmptyString },
)

/** Recorded conformance snapshots, newest first. */
export const ConformanceHistoryResponse = struct(
  'ConformanceHistoryResponse',
  { ok: t.literal(true), schema: t.literal('cairn.conformance.history.v1'), generatedAt: IsoTimestamp, count: Count, snapshots: t.array(Snapshot) },
  {},
  'Conformance history; `count` is the number of `snapshots`.',
)

const Rollup = struct('ConformanceRollup', { date: CalendarDate, snapshots: Count, passing: Count, failing: Count })

/** Daily rollups of conformance snapshots. */
export const ConformanceRollupsResponse = struct(
  'ConformanceRollupsResponse',
  {
    ok: t.literal(true),
    schema: t.literal('cairn.conformance.rollups.v1'),
    generatedAt: IsoTimestamp,
    days: Count,
    count: Count,
    rollups: t.array(Rollup),
  },
  {},
  'Daily rollups (UTC dates) over the last `days` days; `count` is the number of `rollups`.',
)

/** Bounded, deterministic odds simulation; the same seed replays the same output. */
export const SignalCircuitSimulationResponse = struct(
  'SignalCircuitSimulationResponse',
  { ok: t.literal(true) },
  { seed: NonEmptyString, rounds: Count, bound: Count, odds: t.record(t.string, DecimalString), outputHash: Sha256Hex, sourceDigest: Sha256Hex },
  'Odds simulation. `odds` maps each outcome to its frequency as a decimal string; `outputHash` is SHA-256 of the canonical output, so replaying `seed` with `rounds` proves the same result; `sourceDigest` pins the simulator source; `rounds` never exceeds `bound`.',
)

/** Open answer of the Signal Circuit routes (cards, art, auctions, battles, discovery). */
export const SignalCircuitResponse = struct(
  'SignalCircuitResponse',
  {},
  { ok: t.boolean },
  'Open response of the Signal Circuit card routes. Properties beyond `ok` depend on the route.',
)

/** Open answer of Sports developer surfaces. */
export const SportsDeveloperResponse = struct(
  'SportsDeveloperResponse',
  {},
  { ok: t.boolean },
  'Open response of the Sports developer surfaces. Properties beyond `ok` depend on the route.',
)

const Card = struct(
  'SportsCard',
  { name: NonEmptyString },
  { team: t.string, season: t.string, position: t.string, rarity: t.string, imageSha256: Sha256Hex },
)
const Ownership = struct('SportsCardOwnership', {}, { ownerActor: NonEmptyString, ownerUsername: NonEmptyString, since: IsoTimestamp, verified: t.boolean })
const ValueBasis = struct(
  'SportsCardValueBasis',
  { basis: t.keyof({ 'last-sale': null, auction: null, 'fixed-price': null, none: null }) },
  { amountUsdCents: DecimalString, amountPhiMicro: DecimalString, asOf: IsoTimestamp },
)
const Links = struct('SportsCardLinks', { verify: UrlString }, { image: UrlString, auction: UrlString, share: UrlString })

/** Manifest of a sealed sports collectible card. */
export const CairnSportsCardManifest = struct(
  'CairnSportsCardManifest',
  {
    schema: t.literal('cairn.sports_card_manifest.v1'),
    sport: NonEmptyString,
    collectibleId: NonEmptyString,
    claimHash: Sha256Hex,
    card: Card,
    ownership: Ownership,
    valueBasis: ValueBasis,
    links: Links,
  },
  { metadata: JsonObject },
  'Sports card manifest. `claimHash` binds the card claim (artwork and metadata); `valueBasis` says where a value came from (never an appraisal); `links.verify` checks the card publicly.',
)

export const signalComponents = {
  ConformanceBadgeResponse, ConformanceHistoryResponse, ConformanceRollupsResponse, SignalCircuitConformanceResponse,
  SignalCircuitSimulationResponse, SportsConformanceResponse, SignalCircuitResponse, SportsDeveloperResponse, CairnSportsCardManifest,
} as const
