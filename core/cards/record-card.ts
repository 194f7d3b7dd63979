/**
 * `POST /api/game/signal-run/cards/record`: anchors a sealed card image and its
 * CairnSportsCardManifest into the public record path. The manifest must keep the Sports rules,
 * the image must be a sealed proof object this deployment verifies, and the image it carries must
 * be the one the manifest's claim binds (`card.imageSha256`). The record and its transparency-log
 * leaf are one commit; recording the same card again answers the first record.
 */
import * as E from 'fp-ts/lib/Either.js'
import { RecordCardRequest } from '../contract/accepted-bodies.js'
import { sha256OfJson } from '../digest/sha256.js'
import { fromBase64Url } from '../encoding/base64url.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { conflict, invalidInput, unprocessable } from '../errors/domain-error.js'
import { nodeVerifyOptions } from '../proof/node-digest.js'
import { serviceTrust } from '../proof/service-trust.js'
import { verifyArtifact } from '../proof/verify.js'
import { violationsOf } from '../sports/rules.js'
import { commitWithLeaves } from '../tlog/sequence.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { CARD_LEAF_KIND, cardIdOf, cardRecords, cardWrite, type CardRecord } from './card-records.js'
import { publicCard } from './public-card.js'

/** @example await recordCard({ body: { manifest, sealedImageB64u }, … }, deps) */
export const recordCard: UseCaseFor<'recordCard'> = async (request, deps) => {
  const decoded = RecordCardRequest.decode(request.body)
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  const { manifest, sealedImageB64u } = decoded.right
  const violations = violationsOf(manifest)
  if (violations.length > 0) return E.left(unprocessable(`The manifest breaks the Sports rules (docs/signal-circuit.md): ${violations.join(', ')}`))
  if (manifest.card.imageSha256 === undefined) return E.left(invalidInput('body.manifest.card.imageSha256 must name the SHA-256 of the card image the claim binds'))

  const cardId = cardIdOf(manifest.claimHash)
  const existing = await cardRecords.get(deps.store, cardId)
  const manifestSha256 = sha256OfJson(manifest)
  if (existing) return answerExisting(existing.value, manifestSha256, deps.config.baseUrl)

  const sealed = fromBase64Url(sealedImageB64u)
  if (sealed === undefined || sealed.length === 0) return E.left(invalidInput('body.sealedImageB64u must be the sealed image as unpadded base64url'))
  const verdict = await verifyArtifact(sealed, await serviceTrust(deps), nodeVerifyOptions)
  if (!verdict.ok) return E.left(unprocessable(`The card image is not a sealed proof object this deployment verifies: ${verdict.errors.join('; ')}`))
  const mediaType = verdict.details?.mediaType ?? ''
  if (!mediaType.startsWith('image/')) return E.left(unprocessable(`The sealed file is ${mediaType || 'not an image'}; a card is recorded from a sealed image`))
  if (verdict.sha256 !== manifest.card.imageSha256) return E.left(unprocessable('The sealed image is not the image the manifest\'s claim binds (card.imageSha256)'))

  const blob = await deps.blobs.put(sealed)
  const now = deps.clock.now()
  const record: CardRecord = {
    cardId, claimHash: manifest.claimHash, manifest, manifestSha256, sealedImageSha256: blob.sha256,
    imageSha256: manifest.card.imageSha256, imageMediaType: mediaType, sealCode: verdict.proof?.code ?? null, discoverable: 1, recordedAtMs: now,
    ownerUserId: verdict.kind === 'proof-object' ? verdict.details?.owner?.userId ?? null : null,
  }
  const leaf = { kind: CARD_LEAF_KIND, cardId, claimHash: manifest.claimHash, manifestSha256, sealedImageSha256: blob.sha256 }
  const { outcome, leafIndexes } = await commitWithLeaves(deps, [cardWrite(record)], [leaf], { actions: [{ kind: 'record', action: 'card_recorded', actorUserId: null }] })
  if (!outcome.ok) {
    const winner = await cardRecords.get(deps.store, cardId)
    if (winner) return answerExisting(winner.value, manifestSha256, deps.config.baseUrl)
    return E.left(conflict('The card could not be recorded at this moment; send it again'))
  }
  return E.right(json({ ok: true, created: true, card: publicCard(record, deps.config.baseUrl), logLeafIndex: leafIndexes[0]! }))
}

function answerExisting(record: CardRecord, manifestSha256: string, baseUrl: string) {
  if (record.manifestSha256 !== manifestSha256) return E.left(conflict('This card (its claim hash) is recorded already with another manifest'))
  return E.right(json({ ok: true, created: false, card: publicCard(record, baseUrl) }))
}
