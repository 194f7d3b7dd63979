/**
 * Recorded sports cards as stored: one record a claim, keyed by the card id the claim hash gives,
 * so the same card can never be recorded twice with different bytes.
 */
import type { CollectionSpec, Json, Write } from '../../ports/store.js'

export const CARDS = 'cards.records'

export const cardRecordsCollection: CollectionSpec = { name: CARDS, indexes: [{ name: 'by_recorded', fields: ['discoverable', 'recordedAtMs'] }] }

/** A card's id: `card_` and the first 32 hex digits of its claim hash (128 bits). */
export const cardIdOf = (claimHash: string) => `card_${claimHash.slice(0, 32)}`

/** The log leaf kind of a recorded card. */
export const CARD_LEAF_KIND = 'cairn.sports_card_record'

export interface CardRecord {
  readonly cardId: string
  readonly claimHash: string
  /** The manifest as recorded (CairnSportsCardManifest). */
  readonly manifest: Json
  /** SHA-256 of the RFC 8785 manifest: what the log leaf names. */
  readonly manifestSha256: string
  /** The sealed card image, content-addressed in the BlobStore. */
  readonly sealedImageSha256: string
  /** Its payload (the image without the proof): the manifest's `card.imageSha256`. */
  readonly imageSha256: string
  readonly imageMediaType: string
  readonly sealCode: string | null
  /**
   * The user the sealed image's proof object names as its owner (an SDK asset seal); null for an
   * integrity-only seal, which names nobody. Absent on records written before ownership was kept.
   */
  readonly ownerUserId?: string | null
  /** 1 while listed in discovery (a number, so the index orders it). */
  readonly discoverable: 1 | 0
  readonly recordedAtMs: number
}

export const cardWrite = (record: CardRecord): Write => ({ kind: 'put', collection: CARDS, key: record.cardId, value: record as unknown as Json, expect: { kind: 'absent' } })
