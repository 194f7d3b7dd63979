/**
 * Test support for the card market and battles: cards recorded the way a player records one (an
 * image sealed as the owner's proof object, then recorded), and cards written straight into a
 * Store for in-process fault tests.
 */
import { pngFile } from '../proof/payloads.js'
import { bodyOf, type SignedIn } from '../../hosts/http/oidc-test-support.js'
import type { RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import type { Store } from '../../ports/store.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { claimHashOf } from '../../core/sports/rules.js'
import { cardIdOf, cardWrite, type CardRecord } from '../../core/cards/card-records.js'

export const cardImageOf = (seed: number) => pngFile([Uint8Array.from({ length: 64 }, (_, i) => (i * 31 + seed) % 256)])

export function cardManifestFor(image: Uint8Array, collectibleId: string) {
  const claim = { sport: 'baseball', collectibleId, card: { name: `Card ${collectibleId}`, imageSha256: sha256Hex(image) } }
  return {
    schema: 'cairn.sports_card_manifest.v1' as const, ...claim, claimHash: claimHashOf(claim), ownership: { verified: true }, valueBasis: { basis: 'none' as const },
    links: { verify: 'https://cairn.test/verify' },
  }
}

/** Seals a card image as `owner`'s proof object and records it; `integrityOnly` seals it naming nobody. */
export async function recordOwnedCard(runtime: RuntimeTestWorld, owner: SignedIn | null, seed: number): Promise<{ cardId: string; claimHash: string }> {
  const image = cardImageOf(seed)
  const file = { file: { filename: 'card.png', mimeType: 'image/png', bytes: image } }
  const sealed = owner === null
    ? await runtime.call('sealDocument', { body: file })
    : await runtime.call('sealOwnedAsset', { body: file, credentials: { sessionCookie: owner.cookie } })
  const manifest = cardManifestFor(image, `set-${seed}`)
  const recorded = bodyOf<{ card: { cardId: string; claimHash: string } }>(await runtime.call('recordCard', { body: { manifest, sealedImageB64u: bodyOf<{ sealedBytesB64u: string }>(sealed).sealedBytesB64u } }))
  return recorded.card
}

/** Writes a recorded card held by `ownerUserId` straight into `store` (no seal: for in-process tests). */
export async function seedOwnedCard(store: Store, ownerUserId: string | null, seed: number): Promise<CardRecord> {
  const manifest = cardManifestFor(cardImageOf(seed), `seeded-${seed}`)
  const { claimHash } = manifest
  const record: CardRecord = {
    cardId: cardIdOf(claimHash), claimHash, manifest, manifestSha256: '0'.repeat(64), sealedImageSha256: '0'.repeat(64), imageSha256: '0'.repeat(64),
    imageMediaType: 'image/png', sealCode: null, discoverable: 1, recordedAtMs: 0, ownerUserId,
  }
  const outcome = await store.commit([cardWrite(record)])
  if (!outcome.ok) throw new Error('the card exists already')
  return record
}
