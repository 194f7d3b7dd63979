/**
 * The seal routes. `/api/document-seal` (anyone) and Connect `/seal` (a token's user, delegated)
 * make integrity-only seals; `/api/sdk/v1/assets/seal` (a session) makes a proof object naming
 * its owner and the owner's ID keys, whose manifest is the owner's native record.
 */
import * as E from 'fp-ts/lib/Either.js'
import { invalidInput, unauthenticated } from '../../errors/domain-error.js'
import { fromBase64Url } from '../../encoding/base64url.js'
import { getIdentity } from '../../identity/identities.js'
import type { UseCaseFor } from '../../usecases/use-case.js'
import { sealArtifact } from '../seal-artifact.js'
import { assetManifestOf } from '../asset-manifest.js'
import { sealReply } from './seal-reply.js'

export const sealDocument: UseCaseFor<'sealDocument'> = async (request, deps) => {
  const sealed = await sealArtifact(deps, request.body.file, { sealKind: 'integrity-seal', actorUserId: null })
  return E.map(sealReply)(sealed)
}

export const sealOwnedAsset: UseCaseFor<'sealOwnedAsset'> = async (request, deps) => {
  const { principal } = request
  if (principal.kind !== 'session') return E.left(unauthenticated('Sealing an owned asset needs a session'))
  const identity = await getIdentity(deps, principal.userId)
  if (!identity) return E.left(unauthenticated('The session names no identity'))
  const owner = { userId: identity.record.userId, username: identity.record.username, idKeyThumbprints: identity.record.keys.map((key) => key.keyId) }
  const sealed = await sealArtifact(deps, request.body.file, { sealKind: 'proof-object', owner, actorUserId: owner.userId, action: 'asset_sealed' })
  return E.map((artifact: Parameters<typeof sealReply>[0]) => sealReply(artifact, assetManifestOf(artifact.prepared.statement)))(sealed)
}

/**
 * Connect seal: a JSON body `{ "filename", "mimeType", "bytesB64u" }` (the spec gives this route a
 * free-form JSON body), sealed integrity-only on behalf of the token's user.
 */
export const connectSeal: UseCaseFor<'connectSeal'> = async (request, deps) => {
  if (request.principal.kind !== 'bearer') return E.left(unauthenticated('Connect seal needs a bearer token'))
  const body = request.body ?? {}
  const bytes = typeof body.bytesB64u === 'string' ? fromBase64Url(body.bytesB64u) : undefined
  if (!bytes) return E.left(invalidInput('body.bytesB64u is required: the file to seal, as unpadded base64url'))
  if (body.filename !== undefined && typeof body.filename !== 'string') return E.left(invalidInput('body.filename must be a string'))
  if (body.mimeType !== undefined && (typeof body.mimeType !== 'string' || body.mimeType === '')) return E.left(invalidInput('body.mimeType must be a non-empty string'))
  const file = { bytes, filename: (body.filename as string | undefined) ?? 'file', mimeType: (body.mimeType as string | undefined) ?? 'application/octet-stream' }
  const sealed = await sealArtifact(deps, file, { sealKind: 'integrity-seal', actorUserId: request.principal.subject, action: 'connect_sealed' })
  return E.map(sealReply)(sealed)
}
