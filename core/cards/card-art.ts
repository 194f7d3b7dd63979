/**
 * Card art: `POST /api/game/signal-run/cards/art` generates a card's art once or retrieves what was
 * made, and `GET /api/game/signal-run/cards/art-image?cardId=&claimHash=` serves those exact bytes,
 * immutable (content-addressed in the BlobStore, cached for a year, ETag the SHA-256). The art is
 * bound to the claim hash: the card id must be the one the claim hash gives. Art from the built-in
 * generator is deterministic; whatever an external generator draws is kept, so art never changes.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { CardArtRequest } from '../contract/accepted-bodies.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { conflict, invalidInput, notFound, unavailable } from '../errors/domain-error.js'
import { typedCollection } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { cardIdOf } from './card-records.js'

export const CARD_ART = 'cards.art'
const CardArtRecordCodec = t.readonly(t.type({
  cardId: t.string, claimHash: t.string, sha256: t.string, mediaType: t.string, width: t.number, height: t.number, generator: t.string, createdAtMs: t.number,
}))
export type CardArtRecord = t.TypeOf<typeof CardArtRecordCodec>

export const cardArt = typedCollection({ name: CARD_ART }, CardArtRecordCodec)
export const cardArtCollection: CollectionSpec = cardArt.spec

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The card id the claim hash gives, or why the pair is refused. */
function boundPair(cardId: string, claimHash: string) {
  return cardIdOf(claimHash) === cardId ? E.right(cardId) : E.left(invalidInput('cardId is not the card id this claimHash gives (card_ and its first 32 hex digits)'))
}

const publicArt = ({ createdAtMs, ...art }: CardArtRecord, baseUrl: string) => ({
  ...art, createdAt: new Date(createdAtMs).toISOString(),
  imageUrl: `${baseUrl}/api/game/signal-run/cards/art-image?cardId=${art.cardId}&claimHash=${art.claimHash}`,
})

/** @example await generateCardArt({ body: { cardId, claimHash }, … }, deps) */
export const generateCardArt: UseCaseFor<'generateCardArt'> = async (request, deps) => {
  const decoded = CardArtRequest.decode(request.body)
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  const { cardId, claimHash, description } = decoded.right
  const bound = boundPair(cardId, claimHash)
  if (E.isLeft(bound)) return bound
  const stored = await loadArt(deps, cardId)
  if (stored) return E.right(json({ ok: true, created: false, art: publicArt(stored, deps.config.baseUrl) }))
  if (!deps.images) return E.left(unavailable('No image generator is configured'))

  const image = await deps.images.generate({ claimHash, description: description ?? '' })
  const blob = await deps.blobs.put(image.bytes)
  const art: CardArtRecord = { cardId, claimHash, sha256: blob.sha256, mediaType: image.mediaType, width: image.width, height: image.height, generator: image.generator, createdAtMs: deps.clock.now() }
  const outcome = await deps.store.commit([cardArt.put(cardId, art, { kind: 'absent' })])
  if (!outcome.ok) {
    const winner = await loadArt(deps, cardId) // a concurrent request made it first: its art is the card's
    return winner ? E.right(json({ ok: true, created: false, art: publicArt(winner, deps.config.baseUrl) })) : E.left(conflict('The art could not be stored at this moment; try again'))
  }
  return E.right(json({ ok: true, created: true, art: publicArt(art, deps.config.baseUrl) }))
}

/** @example await getCardArtImage({ query: { cardId, claimHash }, … }, deps) */
export const getCardArtImage: UseCaseFor<'getCardArtImage'> = async (request, deps) => {
  const { cardId, claimHash } = request.query
  if (!/^[0-9a-f]{64}$/.test(claimHash)) return E.left(invalidInput('claimHash must be 64 lowercase hex digits'))
  const bound = boundPair(cardId, claimHash)
  if (E.isLeft(bound)) return bound
  const art = await loadArt(deps, cardId)
  if (!art) return E.left(notFound('No art was made for this card yet; POST /api/game/signal-run/cards/art makes it'))
  const bytes = await deps.blobs.get(art.sha256)
  if (!bytes) return E.left(unavailable('The stored art is missing from blob storage'))
  return E.right({ kind: 'bytes', contentType: art.mediaType, bytes, headers: { 'cache-control': IMMUTABLE, etag: `"${art.sha256}"` } })
}

async function loadArt(deps: Pick<CoreDeps, 'store'>, cardId: string): Promise<CardArtRecord | undefined> {
  return (await cardArt.get(deps.store, cardId))?.value
}
