/**
 * The public wallet ledger: an append-only stream of transfer, note mint, note claim, issuance,
 * checkout and lawful settlement events with exact value fields and pseudonymous actors, and a
 * rollup whose totals are updated in the same commit as each event, so they always equal the sum
 * of the events. The rollup is kept in `ROLLUP_SHARDS` documents, folded on read: each host adds
 * its commits' events to one shard, so hosts moving value side by side do not all write one
 * document (a host that loses a race on its shard moves to another; core/value/movement.ts).
 */
import * as t from 'io-ts'
import type { CollectionSpec, StreamEntry, Write } from '../../ports/store.js'
import { nullableString, typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import { typedStream } from '../usecases/typed-stream.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { leafHashHex } from '../tlog/leaf.js'
import { fromDecimal, toDecimal, type Unit } from './amount.js'

export const WALLET_LEDGER_STREAM = 'ledger.wallet'
export const VALUE_ROLLUP = 'value.rollup'
/** Shard 0 is the document every rollup was before it had shards. */
const ROLLUP_KEY = 'wallet-ledger'
export const ROLLUP_SHARDS = 8
const shardKey = (shard: number) => (shard === 0 ? ROLLUP_KEY : `${ROLLUP_KEY}.${shard}`)

export const WALLET_RECEIPT_SCHEMA = 'cairn.wallet_ledger_receipt'

const WalletEventKindCodec = t.keyof({ transfer: null, note_mint: null, note_claim: null, issuance: null, checkout: null, settlement: null })
export type WalletEventKind = t.TypeOf<typeof WalletEventKindCodec>

/**
 * A public event as stored in the stream: the receipt digests are over exactly these members.
 * Events published before movements took the log's next position (`appendNext`) also name the
 * index of their leaf in the transparency log, `logLeafIndex`; an event's leaf cannot name its own
 * position when the Store assigns it at commit time, so later events are found in the log by
 * their leaf's hash (`receipt.log.inclusionPath`).
 */
const WalletLedgerEventValueCodec = t.readonly(t.intersection([
  t.type({
    id: t.string, kind: WalletEventKindCodec, createdAt: t.string, pulse: t.number,
    amountPhiMicro: t.string, amountUsdCents: t.string, fromActor: t.string, toActor: t.string,
  }),
  t.partial({ logLeafIndex: t.number }),
]))
export type WalletLedgerEventValue = t.TypeOf<typeof WalletLedgerEventValueCodec>

/** The stream itself: appends take a `WalletLedgerEventValue`, reads decode one. */
export const walletLedger = typedStream(WALLET_LEDGER_STREAM, WalletLedgerEventValueCodec)

/** The log leaf of a published event: anyone holding the event rebuilds it from `entryDigest`. */
export const WALLET_EVENT_LEAF_KIND = 'cairn.wallet_ledger_event'

/**
 * Totals over every event; counts and sums are decimal strings. The issuance, checkout and
 * settlement counts are absent from rollups written before those events were published: read as '0'.
 */
const WalletLedgerRollupCodec = t.readonly(t.intersection([
  t.type({
    totalTransferEvents: t.string, totalNoteMintEvents: t.string, totalNoteClaimEvents: t.string,
    totalPhiCreditMicro: t.string, totalPhiDebitMicro: t.string, totalUsdCreditCents: t.string, totalUsdDebitCents: t.string, updatedAt: t.string,
  }),
  t.partial({ totalIssuanceEvents: t.string, totalCheckoutEvents: t.string, totalSettlementEvents: t.string }),
]))
export type WalletLedgerRollup = t.TypeOf<typeof WalletLedgerRollupCodec>

const valueRollup = typedCollection({ name: VALUE_ROLLUP }, WalletLedgerRollupCodec)
export const valueRollupCollection: CollectionSpec = valueRollup.spec

export const EMPTY_ROLLUP: WalletLedgerRollup = {
  totalTransferEvents: '0', totalNoteMintEvents: '0', totalNoteClaimEvents: '0', totalIssuanceEvents: '0', totalCheckoutEvents: '0', totalSettlementEvents: '0',
  totalPhiCreditMicro: '0', totalPhiDebitMicro: '0', totalUsdCreditCents: '0', totalUsdDebitCents: '0',
  updatedAt: new Date(0).toISOString(),
}

/** One shard of the rollup, with the version to write it back under. */
export async function loadRollupShard(deps: Pick<CoreDeps, 'store'>, shard: number): Promise<{ rollup: WalletLedgerRollup; version: number | null }> {
  const doc = await valueRollup.get(deps.store, shardKey(shard))
  return doc ? { rollup: doc.value, version: doc.version } : { rollup: EMPTY_ROLLUP, version: null }
}

const ROLLUP_TOTALS = [
  'totalTransferEvents', 'totalNoteMintEvents', 'totalNoteClaimEvents', 'totalIssuanceEvents', 'totalCheckoutEvents', 'totalSettlementEvents',
  'totalPhiCreditMicro', 'totalPhiDebitMicro', 'totalUsdCreditCents', 'totalUsdDebitCents',
] as const satisfies readonly Exclude<keyof WalletLedgerRollup, 'updatedAt'>[]

/** The rollup over every event: the shards folded (sums added; `updatedAt` the latest). */
export async function loadRollup(deps: Pick<CoreDeps, 'store'>): Promise<WalletLedgerRollup> {
  const shards = await Promise.all(Array.from({ length: ROLLUP_SHARDS }, (_, shard) => loadRollupShard(deps, shard)))
  const present = shards.flatMap(({ rollup, version }) => (version === null ? [] : [rollup]))
  // A ledger written by one host has one shard: served as stored.
  if (present.length <= 1) return present[0] ?? EMPTY_ROLLUP
  const totals = Object.fromEntries(ROLLUP_TOTALS.map((total) => [total, toDecimal(present.reduce((sum, shard) => sum + fromDecimal(shard[total] ?? '0'), 0n))]))
  const updatedAt = present.map((shard) => shard.updatedAt).reduce((latest, at) => (at > latest ? at : latest))
  return { ...(totals as Omit<WalletLedgerRollup, 'updatedAt'>), updatedAt }
}

/**
 * What one event did to wallets, per unit. A wallet credit is value arriving in a wallet (transfer,
 * note claim, issuance, checkout, a lawful settlement paid from a reserve), a wallet debit is value
 * leaving one (transfer, note mint): a transfer is both. A checkout that bought Φ shows the cents paid beside the Φ credited; those
 * cents went to the deployment (`sales:phi`), never into a wallet, so only the Φ is a credit.
 */
export function walletSides(event: Pick<WalletLedgerEventValue, 'kind' | 'amountPhiMicro' | 'amountUsdCents'>): { phiCredit: bigint; phiDebit: bigint; usdCredit: bigint; usdDebit: bigint } {
  const phi = fromDecimal(event.amountPhiMicro)
  const usd = fromDecimal(event.amountUsdCents)
  const credits = event.kind !== 'note_mint'
  const debits = event.kind === 'transfer' || event.kind === 'note_mint'
  const usdIsPrice = event.kind === 'checkout' && phi > 0n
  return {
    phiCredit: credits ? phi : 0n,
    phiDebit: debits ? phi : 0n,
    usdCredit: credits && !usdIsPrice ? usd : 0n,
    usdDebit: debits ? usd : 0n,
  }
}

/** The rollup after one more event (`walletSides` says what counts as a credit and a debit). */
export function addToRollup(rollup: WalletLedgerRollup, event: WalletLedgerEventValue): WalletLedgerRollup {
  const sides = walletSides(event)
  return {
    totalTransferEvents: counted(rollup.totalTransferEvents, event, 'transfer'),
    totalNoteMintEvents: counted(rollup.totalNoteMintEvents, event, 'note_mint'),
    totalNoteClaimEvents: counted(rollup.totalNoteClaimEvents, event, 'note_claim'),
    totalIssuanceEvents: counted(rollup.totalIssuanceEvents, event, 'issuance'),
    totalCheckoutEvents: counted(rollup.totalCheckoutEvents, event, 'checkout'),
    totalSettlementEvents: counted(rollup.totalSettlementEvents, event, 'settlement'),
    totalPhiCreditMicro: plus(rollup.totalPhiCreditMicro, sides.phiCredit),
    totalPhiDebitMicro: plus(rollup.totalPhiDebitMicro, sides.phiDebit),
    totalUsdCreditCents: plus(rollup.totalUsdCreditCents, sides.usdCredit),
    totalUsdDebitCents: plus(rollup.totalUsdDebitCents, sides.usdDebit),
    updatedAt: event.createdAt,
  }
}

// Module-level rather than closures in addToRollup (run through tsx, a named closure is renamed
// every time it is made, per movement); a total an event leaves alone is kept as it is, unparsed.
function plus(total: string | undefined, amount: bigint): string {
  return amount === 0n ? (total ?? '0') : toDecimal(fromDecimal(total ?? '0') + amount)
}

function counted(total: string | undefined, event: WalletLedgerEventValue, kind: WalletEventKind): string {
  return plus(total, event.kind === kind ? 1n : 0n)
}

/** The amount fields of an event: each moved unit carries its amount, a unit that did not move zero. */
export function eventAmounts(unit: Unit, amount: bigint, exchange?: { readonly unit: Unit; readonly amount: bigint }): Pick<WalletLedgerEventValue, 'amountPhiMicro' | 'amountUsdCents'> {
  return { amountPhiMicro: amountIn('phi', unit, amount, exchange), amountUsdCents: amountIn('usd', unit, amount, exchange) }
}

function amountIn(wanted: Unit, unit: Unit, amount: bigint, exchange: { readonly unit: Unit; readonly amount: bigint } | undefined): string {
  return toDecimal(unit === wanted ? amount : exchange?.unit === wanted ? exchange.amount : 0n)
}

/** The write that saves `next` as rollup shard `shard`, over the version it was loaded at. */
export function rollupWrite(shard: number, next: WalletLedgerRollup, loadedVersion: number | null): Write {
  return valueRollup.put(shardKey(shard), next, unchangedSince(loadedVersion))
}

/**
 * Where an event's receipt is checked: the feed page after the entry before it, which holds exactly
 * that event (`limit=1`), as the feed itself serves it.
 */
export function verifyPathAfter(priorCursor: string | null): string {
  return priorCursor === null ? '/api/wallet/ledger/public?limit=1' : `/api/wallet/ledger/public?cursor=${encodeURIComponent(priorCursor)}&limit=1`
}

/** The receipt of one event: its place in the chained stream, recomputable from the event alone. */
const WalletLedgerReceiptCodec = t.readonly(t.type({
  schema: t.literal(WALLET_RECEIPT_SCHEMA),
  sequence: t.number,
  /** SHA-256 of the RFC 8785 canonical JSON of the event's stored members. */
  entryDigest: t.string,
  priorHead: nullableString,
  /** SHA-256 of the canonical `{"entryDigest","priorHead"}`: the stream head after this event. */
  head: t.string,
  /**
   * The event's transparency-log leaf and where its inclusion proof is served: by the leaf's hash
   * (`/log/proof/leaf/{hash}`, RFC 6962's get-proof-by-hash), or by index for an event that names
   * its `logLeafIndex`.
   */
  log: t.readonly(t.intersection([
    t.type({
      leaf: t.readonly(t.type({ kind: t.literal(WALLET_EVENT_LEAF_KIND), eventId: t.string, eventDigest: t.string })),
      inclusionPath: t.string,
    }),
    t.partial({ leafIndex: t.number }),
  ])),
}))
export type WalletLedgerReceipt = t.TypeOf<typeof WalletLedgerReceiptCodec>

/** An event as published (and saved in the replies that carry it): the stored members plus where and how to verify it. */
export const PublishedWalletEventCodec = t.readonly(t.intersection([
  WalletLedgerEventValueCodec,
  t.type({ proofBundle: t.readonly(t.type({ kind: t.literal(WALLET_RECEIPT_SCHEMA), verifyPath: t.string })), receipt: WalletLedgerReceiptCodec }),
]))
export type PublishedWalletEvent = t.TypeOf<typeof PublishedWalletEventCodec>

/** The log leaf of the event `eventId` whose digest is `eventDigest`: members in RFC 8785 order, as the log hashes it. */
export const walletEventLeaf = (eventId: string, eventDigest: string) => ({ eventDigest, eventId, kind: WALLET_EVENT_LEAF_KIND }) as const

/** The published event `entry` of the feed holds (its stored members `value`); `priorCursor` is the position just before it. */
export function publishedEntry(value: WalletLedgerEventValue, entry: StreamEntry, priorCursor: string | null): PublishedWalletEvent {
  const leaf = walletEventLeaf(value.id, entry.entryDigest)
  const leafIndex = value.logLeafIndex
  // An event that names its leaf's index (published before the Store assigned it) is found by that index.
  const log = leafIndex === undefined ? { leaf, inclusionPath: `/log/proof/leaf/${leafHashHex(leaf)}` } : { leafIndex, leaf, inclusionPath: `/log/proof/inclusion?index=${leafIndex}` }
  // Literals, no spread: this runs for every movement published (V8 builds a spread on a slow path).
  const event: PublishedWalletEvent = {
    id: value.id, kind: value.kind, createdAt: value.createdAt, pulse: value.pulse,
    amountPhiMicro: value.amountPhiMicro, amountUsdCents: value.amountUsdCents, fromActor: value.fromActor, toActor: value.toActor,
    proofBundle: { kind: WALLET_RECEIPT_SCHEMA, verifyPath: verifyPathAfter(priorCursor) },
    receipt: { schema: WALLET_RECEIPT_SCHEMA, sequence: entry.sequence, entryDigest: entry.entryDigest, priorHead: entry.priorHead, head: entry.head, log },
  }
  // Served as stored: the index is one of the members its digest covers.
  return leafIndex === undefined ? event : { ...event, logLeafIndex: leafIndex }
}
