/**
 * The bodies the operations the spec types as `GenericCairnRequest` actually accept. The spec's
 * name stays in the contract table (and in the document's components); the OpenAPI document
 * publishes these schemas for the request bodies, so a generated client can send them without a
 * cast, and the use cases that decode with a codec decode with these very values.
 */
import * as t from 'io-ts'
import { annotate } from './json-schema.js'
import { Base64Url, DecimalString, IsoTimestamp, NonEmptyString, Sha256Hex } from './primitives.js'
import { CairnSportsCardManifest } from './schemas/signal.js'
import type { OperationId } from './operations/index.js'

/** A client's own key for one request (a bid, a battle request): a retry with it answers the first. */
export const RequestId = annotate(
  t.refinement(t.string, (id) => /^[A-Za-z0-9._:-]{1,128}$/.test(id), 'RequestId'),
  { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
)

/** A body whose properties the operation does not read (it may be absent or `{}`). */
const Unread = annotate(t.UnknownRecord, { type: 'object', additionalProperties: true, description: 'Not read: send no body or `{}`.' })

export const CardMarketAction = t.union([
  t.intersection([
    t.type({ action: t.literal('open'), startingBidPhiMicro: DecimalString, durationSeconds: t.number }),
    t.partial({ minIncrementPhiMicro: DecimalString, buyNowPhiMicro: DecimalString }),
  ]),
  t.type({ action: t.literal('list'), pricePhiMicro: DecimalString }),
  t.type({ action: t.literal('cancel') }),
  t.intersection([t.type({ action: t.literal('bid'), amountPhiMicro: DecimalString }), t.partial({ requestId: RequestId })]),
  t.type({ action: t.literal('buy'), pricePhiMicro: DecimalString }),
  t.type({ action: t.literal('settle') }),
], 'CardMarketAction')

export const CardArtRequest = t.intersection([
  t.type({ cardId: NonEmptyString, claimHash: Sha256Hex }),
  t.partial({ description: t.string }),
], 'CardArtRequest')

export const BattleAnswer = t.intersection([
  t.type({ battleId: t.string, action: t.keyof({ accept: null, decline: null, cancel: null, reveal: null, claim: null, settle: null }) }),
  t.partial({ seed: t.string }),
], 'BattleAnswer')

export const BattleRequest = t.intersection([
  // requestId is required: the battle id derives from it, and the seed commitment binds that id.
  t.type({ challengerCardId: t.string, opponentCardId: t.string, stake: t.keyof({ fun: null, xp: null, money: null, card: null }), seedCommitment: Sha256Hex, requestId: RequestId }),
  t.partial({ stakePhiMicro: t.string }),
], 'BattleRequest')

export const BattleSettings = t.type({ cardId: t.string, twinDefense: t.boolean }, 'BattleSettings')

export const RecordCardRequest = t.type({ manifest: CairnSportsCardManifest, sealedImageB64u: Base64Url }, 'RecordCardRequest')

const VisitorId = annotate(t.refinement(t.string, (s) => /^[A-Za-z0-9_-]{8,64}$/.test(s), 'Id'), { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' })
const ThreadSecret = annotate(t.refinement(t.string, (s) => /^[A-Za-z0-9_-]{16,128}$/.test(s), 'ThreadSecret'), { type: 'string', pattern: '^[A-Za-z0-9_-]{16,128}$' })
const MessageText = annotate(t.refinement(t.string, (s) => s.trim().length > 0 && s.length <= 2000, 'MessageText'), { type: 'string', minLength: 1, maxLength: 2000 })
export const VisitorMessageRequest = t.intersection([
  t.type({ visitorId: VisitorId, text: MessageText }),
  t.partial({ kind: t.keyof({ message: null, booking: null }), threadId: VisitorId, threadSecret: ThreadSecret, slotStart: IsoTimestamp }),
], 'VisitorMessageRequest')

export const NoteMintRequest = t.intersection([
  t.type({ unit: t.keyof({ phi: null, usd: null }), amount: t.string }),
  t.partial({ expiresInSeconds: t.number, idempotencyKey: t.string }),
], 'NoteMintRequest')

export const NoteClaimRequest = t.type({ note: t.string }, 'NoteClaimRequest')

/** The use case reads these by hand (its own sentences); the codec is what it accepts. */
const EmbedNoteClaimRequest = t.type({ note: t.string, targetUsername: NonEmptyString }, 'EmbedNoteClaimRequest')
const ConnectRecordRequest = t.intersection([
  t.type({ sha256: Sha256Hex }),
  t.partial({ byteLength: t.number, filename: t.string, mimeType: t.string }),
], 'ConnectRecordRequest')
const ConnectSealRequest = t.intersection([
  t.type({ bytesB64u: Base64Url }),
  t.partial({ filename: t.string, mimeType: NonEmptyString }),
], 'ConnectSealRequest')
const ObserveRequest = annotate(t.partial({ url: t.string, sourceUrl: t.string, externalCreatorId: t.string, namespace: t.string }), {
  type: 'object',
  description: '`url` (or its alias `sourceUrl`) is required: the public http(s) URL to observe.',
  properties: { url: { type: 'string', format: 'uri' }, sourceUrl: { type: 'string', format: 'uri' }, externalCreatorId: { type: 'string', minLength: 1, maxLength: 256 }, namespace: { type: 'string', minLength: 1, maxLength: 256 } },
})
const ClaimCoordinates = annotate(t.partial({ code: t.string, slug: t.string, verifyUrl: t.string, sha256: Sha256Hex }), {
  type: 'object',
  description: 'Name the claim by at least one of `code`, `slug`, `verifyUrl` or `sha256`.',
  properties: { code: { type: 'string', minLength: 1 }, slug: { type: 'string', minLength: 1 }, verifyUrl: { type: 'string', minLength: 1 }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
})

/** operationId → the body it accepts, for every operation whose row names `GenericCairnRequest`. */
export const acceptedBodies = {
  connectRecord: ConnectRecordRequest,
  connectSeal: ConnectSealRequest,
  approveTwinMarketIntent: Unread,
  mintWalletNote: NoteMintRequest,
  claimWalletNote: NoteClaimRequest,
  getUserinfo: Unread,
  postUserinfo: Unread,
  claimEmbedNote: EmbedNoteClaimRequest,
  observePublicProof: ObserveRequest,
  getCardAuction: Unread,
  appendCardAuctionAction: CardMarketAction,
  generateCardArt: CardArtRequest,
  listBattleRequests: Unread,
  answerBattleRequest: BattleAnswer,
  createBattleRequest: BattleRequest,
  saveBattleSettings: BattleSettings,
  recordCard: RecordCardRequest,
  verifyClaim: ClaimCoordinates,
  messageWorldProfile: VisitorMessageRequest,
  streamWorldProfile: VisitorMessageRequest,
} as const satisfies Partial<Record<OperationId, t.Mixed>>

export type AcceptedBodies = typeof acceptedBodies
