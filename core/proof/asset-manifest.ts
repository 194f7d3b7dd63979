/** The owner's native record of an SDK asset seal (`CairnAssetManifest`), at the seal's coordinates. */
import * as t from 'io-ts'
import { ProofBundle, type ProofStatement } from './format.js'

/** The manifest as stored with its seal (core/proof/seal-records.ts) and served to its owner. */
export const AssetManifestCodec = t.readonly(t.type({
  schema: t.literal('cairn.asset_manifest.v1'),
  assetId: t.string,
  assetType: t.string,
  proof: ProofBundle,
  links: t.readonly(t.type({ verify: t.string })),
  filename: t.string,
  mimeType: t.string,
  byteLength: t.number,
  sha256: t.string,
  createdAt: t.string,
}), 'AssetManifest')
export type AssetManifest = t.TypeOf<typeof AssetManifestCodec>

/** The media class of a media type: image, document, data, text, audio, video, or package. */
export function assetTypeOf(mediaType: string): string {
  const type = mediaType.toLowerCase()
  if (type.startsWith('image/')) return 'image'
  if (type.startsWith('audio/')) return 'audio'
  if (type.startsWith('video/')) return 'video'
  if (type.startsWith('text/')) return 'text'
  if (type === 'application/pdf') return 'document'
  if (type === 'application/json' || type.endsWith('+json')) return 'data'
  return 'package'
}

export function assetManifestOf(statement: ProofStatement): AssetManifest {
  return {
    schema: 'cairn.asset_manifest.v1',
    assetId: `asset_${statement.bundle.code}`,
    assetType: assetTypeOf(statement.payload.mediaType),
    proof: statement.bundle,
    links: { verify: statement.bundle.verifyUrl },
    filename: statement.payload.fileName,
    mimeType: statement.payload.mediaType,
    byteLength: statement.payload.length,
    sha256: statement.payload.sha256,
    createdAt: statement.bundle.ts,
  }
}
