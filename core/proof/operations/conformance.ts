/**
 * GET /api/verification/conformance runs the golden vectors through the verifier now and reports
 * each result next to the expected verdict; `ok` is false (honestly) when any differs.
 * GET /api/cairn describes the legacy mint/record surface and where its successors are.
 */
import * as E from 'fp-ts/lib/Either.js'
import { sha256OfJson } from '../../digest/sha256.js'
import { fromBase64Url } from '../../encoding/base64url.js'
import type { UseCaseFor } from '../../usecases/use-case.js'
import { PROOF_FORMAT } from '../format.js'
import { GOLDEN_TRUST, GOLDEN_VECTORS } from '../golden/vectors.js'
import { verifyArtifact } from '../verify.js'

const VECTORS_SHA256 = sha256OfJson({ trust: GOLDEN_TRUST, vectors: GOLDEN_VECTORS })

export const getVerificationConformance: UseCaseFor<'getVerificationConformance'> = async (_request, deps) => {
  const results = []
  for (const vector of GOLDEN_VECTORS) {
    const verdict = await verifyArtifact(fromBase64Url(vector.sealedB64u) ?? new Uint8Array(), GOLDEN_TRUST)
    const actual = { ok: verdict.ok, kind: verdict.kind, errors: [...verdict.errors] }
    results.push({ name: vector.name, file: vector.file, passed: sha256OfJson(actual) === sha256OfJson(vector.expected), expected: vector.expected, actual })
  }
  return E.right({
    kind: 'json',
    body: {
      ok: results.every((result) => result.passed),
      ranAt: new Date(deps.clock.now()).toISOString(),
      revision: {
        format: PROOF_FORMAT,
        /** SHA-256 over the canonical JSON of the golden vectors and their trust material: the exact set that ran. */
        vectorsSha256: VECTORS_SHA256,
        source: 'core/proof/golden/ (docs/proof-format.md)',
      },
      trust: GOLDEN_TRUST,
      passed: results.filter((result) => result.passed).length,
      total: results.length,
      results,
    },
  })
}

export const getLegacySurface: UseCaseFor<'getLegacySurface'> = async (_request, deps) =>
  E.right({
    kind: 'json',
    body: {
      ok: true,
      surface: 'cairn.legacy.mint_record',
      status: 'superseded',
      description: 'The legacy mint/record surface is superseded by sealed proof objects: the bytes carry their proof and verify offline.',
      successors: {
        integritySeal: `${deps.config.baseUrl}/api/document-seal`,
        proofObject: `${deps.config.baseUrl}/api/sdk/v1/assets/seal`,
        verifyFile: `${deps.config.baseUrl}/api/document-verify`,
        verifyClaim: `${deps.config.baseUrl}/api/verify`,
        verifyPage: `${deps.config.baseUrl}/verify`,
        record: `${deps.config.baseUrl}/api/connect/record`,
        proofKeys: `${deps.config.baseUrl}/proof/keys`,
        log: `${deps.config.baseUrl}/log/checkpoint`,
      },
      format: PROOF_FORMAT,
    },
  })
