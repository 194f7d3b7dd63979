/** A recorded card as the public sees it: its manifest, where its sealed image is verified, and when it was recorded. */
import type { CardRecord } from './card-records.js'

export function publicCard(record: CardRecord, baseUrl: string) {
  return {
    cardId: record.cardId,
    claimHash: record.claimHash,
    manifest: record.manifest,
    manifestSha256: record.manifestSha256,
    image: { sha256: record.imageSha256, sealedSha256: record.sealedImageSha256, mediaType: record.imageMediaType },
    verifyUrl: record.sealCode === null ? null : `${baseUrl}/verify/${record.sealCode}`,
    recordedAt: new Date(record.recordedAtMs).toISOString(),
  }
}
