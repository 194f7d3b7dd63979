/**
 * Verification components: the multipart seal and verify bodies, their answers, and the proof
 * bundle and asset manifest a seal publishes. Sealed bytes stay the authority; these only report.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import {
  Base64Url, IsoTimestamp, JsonObject, KaiPulse, NonEmptyString, NonNegativeInteger, patternString, Sha256Hex, UploadedFile, UrlString,
} from '../primitives.js'

/** A path on this service (starts with `/`), e.g. a proof bundle's `verifyPath` or a redirect `next`. */
export const SitePath = patternString('SitePath', /^\/[^\s]*$/, { description: 'Path on this service, starting with /' })

/** What a verified or sealed artifact is: integrity-only seal, native proof object, package artifact, or unrecognised bytes. */
export const ArtifactKind = t.keyof({ 'integrity-seal': null, 'proof-object': null, package: null, unknown: null }, 'ArtifactKind')

/** Multipart body of the seal routes: the one file whose exact bytes are sealed. */
export const DocumentSealRequest = struct(
  'DocumentSealRequest',
  { file: UploadedFile },
  {},
  'multipart/form-data body: `file` is the source whose exact bytes are sealed.',
)

/** Pointer to where a proof can be checked; embedded in ledger events and manifests. */
export const CairnProofBundle = struct(
  'CairnProofBundle',
  {
    kind: NonEmptyString,
    payloadVersion: NonNegativeInteger,
    createdAtMs: NonNegativeInteger,
    ts: IsoTimestamp,
    code: NonEmptyString,
    slug: NonEmptyString,
    verifyPath: SitePath,
    verifyUrl: UrlString,
    kaiPulseEternal: KaiPulse,
  },
  { sha256: Sha256Hex },
  'Proof bundle: `kind` is a schema string (e.g. `cairn.wallet_ledger_receipt`), `createdAtMs` Unix milliseconds and `ts` the same instant in ISO 8601, `code`/`slug` short public handles, `verifyPath`/`verifyUrl` where anyone verifies it without an account, `kaiPulseEternal` the Kai pulse of creation, `sha256` the digest of the exact bytes it proves.',
)

const ManifestLinks = struct('ManifestLinks', { verify: UrlString }, { download: UrlString, record: UrlString, share: UrlString })

/** Manifest of an owner's sealed asset (SDK asset seal): what it is and where its proof lives. */
export const CairnAssetManifest = struct(
  'CairnAssetManifest',
  {
    schema: t.literal('cairn.asset_manifest.v1'),
    assetId: NonEmptyString,
    assetType: NonEmptyString,
    proof: CairnProofBundle,
    links: ManifestLinks,
  },
  { filename: t.string, mimeType: NonEmptyString, byteLength: NonNegativeInteger, sha256: Sha256Hex, createdAt: IsoTimestamp },
  'Manifest of a sealed asset. `assetType` is the media class (document, image, package…); `links.verify` always resolves to public verification.',
)

/** Answer of the seal routes: metadata about the sealed artifact plus its exact sealed bytes. */
export const DocumentSealResponseMetadata = struct(
  'DocumentSealResponseMetadata',
  {},
  {
    ok: t.boolean,
    kind: ArtifactKind,
    filename: t.string,
    mimeType: NonEmptyString,
    byteLength: NonNegativeInteger,
    sourceSha256: Sha256Hex,
    sealedSha256: Sha256Hex,
    sealedBytesB64u: Base64Url,
    sealedAt: IsoTimestamp,
    pulse: KaiPulse,
    proof: CairnProofBundle,
    manifest: CairnAssetManifest,
  },
  'Seal metadata. `kind` is `integrity-seal` for /api/document-seal (not a verified proof object) and `proof-object` for the SDK asset seal, which also returns `manifest`. `sealedBytesB64u` is the exact sealed artifact: keep it; it verifies offline.',
)

/** Multipart body of the verify routes: the file whose exact bytes are verified. */
export const DocumentVerifyRequest = struct(
  'DocumentVerifyRequest',
  { file: UploadedFile },
  {},
  'multipart/form-data body: `file` is the sealed file or package artifact to verify.',
)

/** Deterministic verdict over exact bytes: `ok` is the verdict, `errors`/`warnings` plain sentences. */
export const DocumentVerifyResponse = struct(
  'DocumentVerifyResponse',
  { ok: t.boolean, kind: ArtifactKind, errors: t.array(t.string), warnings: t.array(t.string) },
  { sha256: Sha256Hex, byteLength: NonNegativeInteger, filename: t.string, proof: CairnProofBundle, details: JsonObject },
  'Verification verdict. `ok: false` with non-empty `errors` means the artifact did not verify (this is a 200 answer, not an error body). The same bytes always give the same verdict.',
)

export const verificationComponents = {
  DocumentSealRequest, DocumentSealResponseMetadata, DocumentVerifyRequest, DocumentVerifyResponse, CairnProofBundle, CairnAssetManifest,
} as const
