/**
 * Recorded sports cards as stored: one record a claim, keyed by the card id the claim hash gives,
 * so the same card can never be recorded twice with different bytes.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Write } from '../../ports/store.js'
import { CairnSportsCardManifest } from '../contract/schemas/signal.js'
import { nullable, typedCollection } from '../usecases/typed-collection.js'

export const CARDS = 'cards.records'

/** A card's id: `card_` and the first 32 hex digits of its claim hash (128 bits). */
export const cardIdOf = (claimHash: string) => `card_${claimHash.slice(0, 32)}`

/** The log leaf kind of a recorded card. */
export const CARD_LEAF_KIND = 'cairn.sports_card_record'

/**
 * A recorded card. `manifest` is the manifest as recorded, decoded by the codec that accepted it
 * (CairnSportsCardManifest, unchanged since the first card was recorded);
 * `manifestSha256` the SHA-256 of its RFC 8785 bytes (what the log leaf names);
 * `sealedImageSha256` the sealed card image, content-addressed in the BlobStore; `imageSha256` its
 * payload (the image without the proof: the manifest's `card.imageSha256`). `ownerUserId` is the
 * user the sealed image's proof object names as its owner (an SDK asset seal); null for an
 * integrity-only seal, which names nobody; absent on records written before ownership was kept.
 * `discoverable` is 1 while listed in discovery (a number, so the index orders it).
 */
const CardRecordCodec = t.readonly(t.intersection([
  t.type({
    cardId: t.string, claimHash: t.string, manifest: CairnSportsCardManifest, manifestSha256: t.string, sealedImageSha256: t.string, imageSha256: t.string,
    imageMediaType: t.string, sealCode: nullable(t.string), discoverable: t.union([t.literal(1), t.literal(0)]), recordedAtMs: t.number,
  }),
  t.partial({ ownerUserId: nullable(t.string) }),
]))
export type CardRecord = t.TypeOf<typeof CardRecordCodec>

export const cardRecords = typedCollection({ name: CARDS, indexes: [{ name: 'by_recorded', fields: ['discoverable', 'recordedAtMs'] }] }, CardRecordCodec)
export const cardRecordsCollection: CollectionSpec = cardRecords.spec

export const cardWrite = (record: CardRecord): Write => cardRecords.put(record.cardId, record, { kind: 'absent' })
