/**
 * Sealed proof objects from a client: seal a file (the answer's exact sealed bytes), and verify a
 * sealed file offline with the verifier the CLI and the /verify page run (core/proof/verify.ts,
 * WebCrypto only) against keys the caller pinned — verification never needs the service.
 */
import { fromBase64Url, toBase64Url } from '../core/proof/bytes.js'
import { verifyArtifact, type TrustMaterial, type Verdict } from '../core/proof/verify.js'
import type { CairnClient } from './cairn-client.js'
import { failure, type Result } from './result.js'
import type { AnswerOf, FilePart } from './types.js'

export type { TrustMaterial, Verdict }

/**
 * The deployment's proof and log keys (`GET /proof/keys`), to pin once and verify offline after:
 * fetch them over TLS from the deployment you trust, then keep them.
 */
export async function fetchTrust(client: CairnClient): Promise<TrustMaterial> {
  const answer = await client.raw('/proof/keys', { headers: { accept: 'application/json' } })
  if (!answer.ok) throw new Error(`${client.baseUrl}/proof/keys answered ${answer.status}`)
  const body = (await answer.json()) as { keys: TrustMaterial['proofKeys']; logKeys: string[] }
  return { proofKeys: body.keys, logKeys: body.logKeys }
}

/** Offline: the same verdict `cairn verify --trust` prints. @example const verdict = await verifySealedFile(bytes, trust) */
export function verifySealedFile(bytes: Uint8Array, trust: TrustMaterial): Promise<Verdict> {
  return verifyArtifact(bytes, trust)
}

export interface Sealed {
  readonly metadata: AnswerOf<'sealDocument'>
  /** The exact sealed bytes: the file to keep and share. */
  readonly bytes: Uint8Array
}

/**
 * Seal a file: integrity-only for anyone, or a proof object naming its owner when `owned` and the
 * client holds a session.
 */
export async function sealFile(client: CairnClient, file: FilePart, options: { readonly owned?: boolean } = {}): Promise<Result<Sealed>> {
  const answer = await client.call(options.owned ? 'sealOwnedAsset' : 'sealDocument', { body: { file } })
  if (!answer.ok) return answer
  const bytes = answer.value.sealedBytesB64u === undefined ? undefined : fromBase64Url(answer.value.sealedBytesB64u)
  if (!bytes) return failure({ _tag: 'BadAnswer', status: answer.status, message: 'The seal answer carries no sealed bytes' })
  return { ...answer, value: { metadata: answer.value, bytes } }
}

/** A sealed file as the runtime carries it (`V124PortableSealedArtifact`: an identity artifact, a source). */
export function portableArtifactOf(sealed: Sealed) {
  return {
    schema: 'cairn.v124.portable_sealed_artifact' as const,
    exactBytesB64u: toBase64Url(sealed.bytes),
    filename: sealed.metadata.filename ?? 'file',
    mimeType: sealed.metadata.mimeType ?? 'application/octet-stream',
    artifactSha256: sealed.metadata.sealedSha256!,
    payloadSha256: sealed.metadata.sourceSha256!,
  }
}
