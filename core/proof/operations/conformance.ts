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
import { GOLDEN_TRUST as V1_TRUST, GOLDEN_VECTORS as V1_VECTORS } from '../golden/vectors.js'
import { GOLDEN_TRUST, GOLDEN_VECTORS } from '../golden/v2/vectors.js'
import { verifyArtifact } from '../verify.js'

/** Every format version's set, oldest first: a current verifier must still give v1 files their verdicts. */
const SETS = [
  { format: 'cairn.proof.v1', dir: 'core/proof/golden/', trust: V1_TRUST, vectors: V1_VECTORS },
  { format: PROOF_FORMAT, dir: 'core/proof/golden/v2/', trust: GOLDEN_TRUST, vectors: GOLDEN_VECTORS },
] as const

const VECTORS_SHA256 = sha256OfJson(SETS.map(({ format, trust, vectors }) => ({ format, trust, vectors })))

export const getVerificationConformance: UseCaseFor<'getVerificationConformance'> = async (_request, deps) => {
  const results = []
  for (const set of SETS) {
    for (const vector of set.vectors) {
      const verdict = await verifyArtifact(fromBase64Url(vector.sealedB64u) ?? new Uint8Array(), set.trust)
      const actual = { ok: verdict.ok, kind: verdict.kind, errors: [...verdict.errors] }
      results.push({ name: `${set.format}: ${vector.name}`, file: `${set.dir}${vector.file}`, passed: sha256OfJson(actual) === sha256OfJson(vector.expected), expected: vector.expected, actual })
    }
  }
  return E.right({
    kind: 'json',
    body: {
      ok: results.every((result) => result.passed),
      ranAt: new Date(deps.clock.now()).toISOString(),
      revision: {
        format: PROOF_FORMAT,
        /** SHA-256 over the canonical JSON of every version's golden vectors and trust material: the exact sets that ran. */
        vectorsSha256: VECTORS_SHA256,
        source: 'core/proof/golden/ (cairn.proof.v1) and core/proof/golden/v2/ (docs/proof-format.md)',
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
