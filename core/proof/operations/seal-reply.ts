/** The answer of every seal route: metadata, the exact sealed bytes, and the same bytes as a download. */
import { toBase64Url } from '../../encoding/base64url.js'
import type { ResponseOf } from '../../usecases/operation-types.js'
import type { JsonReply } from '../../usecases/use-case.js'
import type { SealedArtifact } from '../seal-artifact.js'
import type { AssetManifest } from '../asset-manifest.js'

/** The sealed file's name: the original name, or `<name>.cairn.zip` for a package artifact. */
export function sealedFileName(sealed: SealedArtifact): string {
  const { fileName } = sealed.prepared.statement.payload
  const base = fileName === '' ? 'file' : fileName
  return sealed.prepared.carrier.name === 'zip' ? `${base}.cairn.zip` : base
}

export function sealReply(sealed: SealedArtifact, manifest?: AssetManifest): JsonReply<ResponseOf<'sealDocument'>> & { download: NonNullable<JsonReply<unknown>['download']> } {
  const { statement } = sealed.prepared
  const contentType = sealed.prepared.carrier.name === 'zip' ? 'application/zip' : statement.payload.mediaType
  return {
    kind: 'json',
    body: {
      ok: true,
      kind: statement.sealKind,
      filename: statement.payload.fileName,
      mimeType: statement.payload.mediaType,
      byteLength: statement.payload.length,
      sourceSha256: statement.payload.sha256,
      sealedSha256: sealed.sealedSha256,
      // Read only when the JSON answer is written: a client that asked for the raw download never pays for the base64 (or the joined copy it needs).
      get sealedBytesB64u() {
        return toBase64Url(sealed.bytes)
      },
      sealedAt: statement.bundle.ts,
      pulse: statement.bundle.kaiPulseEternal,
      proof: statement.bundle,
      ...(manifest ? { manifest } : {}),
    },
    download: {
      contentType,
      // Written to the socket part by part: the sealed file is never copied whole for a download.
      parts: sealed.parts,
      get bytes() {
        return sealed.bytes
      },
      filename: sealedFileName(sealed),
      headers: { 'x-cairn-source-sha256': statement.payload.sha256, 'x-cairn-verify-url': statement.bundle.verifyUrl, 'x-cairn-seal-kind': statement.sealKind },
    },
  }
}
