/** The owner's native record of an SDK asset seal (`CairnAssetManifest`), at the seal's coordinates. */
import type { ProofStatement } from './format.js'

export interface AssetManifest {
  readonly schema: 'cairn.asset_manifest.v1'
  readonly assetId: string
  readonly assetType: string
  readonly proof: ProofStatement['bundle']
  readonly links: { readonly verify: string }
  readonly filename: string
  readonly mimeType: string
  readonly byteLength: number
  readonly sha256: string
  readonly createdAt: string
}

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
