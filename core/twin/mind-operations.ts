/**
 * `GET /api/connect/twin/mind/export`, `GET|POST /api/connect/twin/mind/import`. Export seals the
 * owner's Twin mind as a proof-object PNG (one seal, logged like any other). Inspect and import
 * verify the artifact's seal against this deployment's proof keys and log first: a tampered file or
 * one sealed elsewhere reads nothing; inspection answers why, import refuses with the reasons.
 * Import applies the mind's mandate to the importer's Twin (intents and promotion decisions are a
 * record of the past, shown in the summary, not replayed).
 */
import * as E from 'fp-ts/lib/Either.js'
import { sha256Hex } from '../digest/sha256.js'
import { conflict, notFound, unavailable, unprocessable } from '../errors/domain-error.js'
import { getIdentity } from '../identity/identities.js'
import { nodeVerifyOptions } from '../proof/node-digest.js'
import { openArtifact } from '../proof/open-artifact.js'
import { sealArtifact } from '../proof/seal-artifact.js'
import { serviceTrust } from '../proof/service-trust.js'
import { verifyArtifact } from '../proof/verify.js'
import type { UploadedFileValue } from '../contract/primitives.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { guardedPut, MandateCodec, publicIntent, twinIntents, twinMandates, TWIN_INTENTS, type Mandate } from './market-records.js'
import { loadMandate } from './mandate.js'
import { mindOf, MIND_SCHEMA, withMind, type MindEntry, type TwinMind } from './mind.js'
import { twinOwnerOf } from './owner.js'
import { twinApprovals } from './approval-records.js'

const INTENTS_IN_MIND = 100

/** @example await exportTwinMind({ principal, … }, deps) // bytes: image/png */
export const exportTwinMind: UseCaseFor<'exportTwinMind'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const identity = await getIdentity(deps, owner.right.userId)
  if (!identity) return E.left(notFound('The token\'s owner has no identity on this deployment'))
  const { mandate } = await loadMandate(deps, owner.right.userId)
  const intents = await deps.store.query(TWIN_INTENTS, { index: 'by_owner', equals: [owner.right.userId], order: 'desc', limit: INTENTS_IN_MIND })
  const approvals = (await twinApprovals.get(deps.store, owner.right.userId))?.value
  const entries: MindEntry[] = [
    ...(mandate ? [{ kind: 'mandate' as const, value: { ...mandate } }] : []),
    ...intents.items.map((doc) => ({ kind: 'intent' as const, value: publicIntent(twinIntents.decode(doc)) })),
    ...(approvals?.decisions ?? []).map((decision) => ({ kind: 'promotion' as const, value: { ...decision } })),
  ]
  const mind: TwinMind = { schema: MIND_SCHEMA, username: identity.record.username, exportedAt: new Date(deps.clock.now()).toISOString(), entries }
  // The image is the owner's Twin art, drawn from the digest of the user id.
  if (!deps.images) return E.left(unavailable('No image generator is configured to draw the mind artifact'))
  const art = await deps.images.generate({ claimHash: sha256Hex(owner.right.userId), description: identity.record.username })
  if (art.mediaType !== 'image/png') return E.left(unavailable('The image generator draws no PNG; a Twin mind is a PNG artifact'))
  const file = { filename: `twin-mind-${identity.record.username}.png`, mimeType: 'image/png', bytes: withMind(art.bytes, mind) }
  const ownerOfSeal = { userId: identity.record.userId, username: identity.record.username, idKeyThumbprints: identity.record.keys.map((key) => key.keyId) }
  const sealed = await sealArtifact(deps, file, { sealKind: 'proof-object', owner: ownerOfSeal, actorUserId: owner.right.userId, action: 'twin_mind_exported' })
  if (E.isLeft(sealed)) return sealed
  return E.right({ kind: 'bytes', contentType: 'image/png', bytes: sealed.right.bytes, headers: { 'content-disposition': `attachment; filename="${file.filename}"`, 'cache-control': 'no-store' } })
}

interface Inspection {
  readonly summary: { artifactSha256: string; verified: boolean; imported: boolean; keyId?: string; exportedAt?: string; entries?: number; warnings: string[] }
  readonly mind?: TwinMind
}

/** Verifies first, then reads: an artifact that does not verify yields no mind at all. */
async function inspect(deps: CoreDeps, file: UploadedFileValue): Promise<Inspection> {
  const artifactSha256 = sha256Hex(file.bytes)
  const verdict = await verifyArtifact(file.bytes, await serviceTrust(deps), nodeVerifyOptions)
  const refused = (warnings: string[]): Inspection => ({ summary: { artifactSha256, verified: false, imported: false, warnings } })
  if (!verdict.ok) return refused(verdict.errors.length > 0 ? [...verdict.errors] : ['The artifact does not verify'])
  if (verdict.kind !== 'proof-object' || verdict.details?.carrier !== 'png') return refused(['A Twin mind is a PNG proof object; this artifact is not one'])
  const opened = openArtifact(file.bytes)
  if (E.isLeft(opened)) return refused([opened.left.error])
  const read = mindOf(opened.right.payload)
  if ('error' in read) return refused([read.error])
  const keyId = verdict.details.signatures[0]?.kid
  return {
    mind: read.mind,
    summary: { artifactSha256, verified: true, imported: false, ...(keyId ? { keyId } : {}), exportedAt: read.mind.exportedAt, entries: read.mind.entries.length, warnings: [...verdict.warnings] },
  }
}

/** @example await inspectTwinMind({ body: { mind: file }, principal, … }, deps) */
export const inspectTwinMind: UseCaseFor<'inspectTwinMind'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  return E.right(json({ ok: true as const, summary: (await inspect(deps, request.body.mind)).summary }, { 'cache-control': 'no-store' }))
}

/** @example await importTwinMind({ body: { mind: file }, principal, … }, deps) */
export const importTwinMind: UseCaseFor<'importTwinMind'> = async (request, deps) => {
  const owner = twinOwnerOf(request.principal)
  if (E.isLeft(owner)) return owner
  const { summary, mind } = await inspect(deps, request.body.mind)
  if (!mind) return E.left(unprocessable(`The Twin mind was not imported: ${summary.warnings.join('; ')}`))
  const mandateEntry = mind.entries.find((entry) => entry.kind === 'mandate')
  if (mandateEntry) {
    const { doc } = await loadMandate(deps, owner.right.userId)
    const carried = MandateCodec.decode(mandateEntry.value)
    if (E.isLeft(carried)) return E.left(unprocessable('The Twin mind was not imported: its mandate is not a mandate'))
    const { enabled, requireApproval, maxOrderUsdCents, dailyLimitUsdCents, allowedMarketIds, riskLevel } = carried.right
    const imported: Mandate = {
      enabled, requireApproval, ...(maxOrderUsdCents !== undefined ? { maxOrderUsdCents } : {}), ...(dailyLimitUsdCents !== undefined ? { dailyLimitUsdCents } : {}),
      allowedMarketIds, riskLevel, updatedAt: new Date(deps.clock.now()).toISOString(),
    }
    const outcome = await deps.store.commit([guardedPut(twinMandates, owner.right.userId, imported, doc)])
    if (!outcome.ok) return E.left(conflict('The mandate changed while the mind was imported; try again'))
  }
  return E.right(json({ ok: true as const, summary: { ...summary, imported: true } }))
}
