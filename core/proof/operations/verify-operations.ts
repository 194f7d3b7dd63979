/**
 * Verification of exact bytes: the offline verifier with this service's published trust. A bad or
 * tampered artifact is a verdict (200, `ok: false`, `errors`), never a 5XX.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { UploadedFileValue } from '../../contract/primitives.js'
import type { CoreDeps, UseCaseFor } from '../../usecases/use-case.js'
import type { ResponseOf } from '../../usecases/operation-types.js'
import { serviceTrust } from '../service-trust.js'
import { verifyArtifact, type Verdict } from '../verify.js'
import { nodeVerifyOptions } from '../node-digest.js'

export function verdictBody(verdict: Verdict, file?: Pick<UploadedFileValue, 'filename'>): ResponseOf<'verifyDocument'> {
  return {
    ok: verdict.ok,
    kind: verdict.kind,
    errors: [...verdict.errors],
    warnings: [...verdict.warnings],
    ...(verdict.sha256 ? { sha256: verdict.sha256 } : {}),
    ...(verdict.byteLength !== undefined ? { byteLength: verdict.byteLength } : {}),
    filename: verdict.filename ?? file?.filename ?? '',
    ...(verdict.proof ? { proof: verdict.proof } : {}),
    ...(verdict.details ? { details: verdict.details as unknown as Record<string, unknown> } : {}),
  } as ResponseOf<'verifyDocument'>
}

export async function verifyUpload(file: UploadedFileValue, deps: CoreDeps): Promise<ResponseOf<'verifyDocument'>> {
  const trust = await serviceTrust(deps)
  try {
    return verdictBody(await verifyArtifact(file.bytes, trust, nodeVerifyOptions), file)
  } catch (error) {
    // The verifier answers every input with a verdict; an exception here is a bug in a carrier parser, still a verdict for the caller.
    return verdictBody({ ok: false, kind: 'unknown', errors: [`Malformed carrier: the file could not be read (${(error as Error).message})`], warnings: [], byteLength: file.bytes.length }, file)
  }
}

export const verifyDocument: UseCaseFor<'verifyDocument'> = async (request, deps) => E.right({ kind: 'json', body: await verifyUpload(request.body.file, deps) })

/** Connect verify: the same verdict, on behalf of the token's user (verification needs no authority). */
export const connectVerify: UseCaseFor<'connectVerify'> = async (request, deps) => E.right({ kind: 'json', body: await verifyUpload(request.body.file, deps) })
