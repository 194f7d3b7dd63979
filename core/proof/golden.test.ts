/**
 * The golden vectors: the current set (core/proof/golden/v2/) is exactly what sealing produces;
 * every set, the frozen cairn.proof.v1 one included, verifies as recorded.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildGoldenVectors, vectorsModule } from '../../conformance/proof/golden.js'
import { fromBase64Url } from './bytes.js'
import { GOLDEN_TRUST as V1_TRUST, GOLDEN_VECTORS as V1_VECTORS, type GoldenVectorData } from './golden/vectors.js'
import { GOLDEN_TRUST as V2_TRUST, GOLDEN_VECTORS as V2_VECTORS } from './golden/v2/vectors.js'
import { verifyArtifact, type TrustMaterial } from './verify.js'

const dir = join(import.meta.dirname, 'golden')

async function expectRecordedVerdicts(trust: TrustMaterial, vectors: readonly GoldenVectorData[]): Promise<void> {
  for (const vector of vectors) {
    const verdict = await verifyArtifact(fromBase64Url(vector.sealedB64u)!, trust)
    expect({ ok: verdict.ok, kind: verdict.kind, errors: verdict.errors }, vector.name).toEqual(vector.expected)
  }
}

describe('golden vectors of cairn.proof.v2 (current)', () => {
  it('regenerate byte for byte (run `npm run golden:proof` after a deliberate format change)', async () => {
    const { trust, vectors } = await buildGoldenVectors()
    for (const vector of vectors) expect(new Uint8Array(readFileSync(join(dir, 'v2', vector.file))), vector.file).toEqual(vector.bytes)
    expect(readFileSync(join(dir, 'v2', 'vectors.ts'), 'utf8')).toBe(vectorsModule(trust, vectors))
  })

  it('give their recorded verdicts', async () => {
    expect(V2_VECTORS.length).toBe(9)
    expect(V2_VECTORS.filter((vector) => vector.expected.ok).length).toBe(6)
    await expectRecordedVerdicts(V2_TRUST, V2_VECTORS)
  })
})

describe('golden vectors of cairn.proof.v1 (frozen: sealing no longer writes them, every verifier still reads them)', () => {
  it('are the committed files, unchanged', () => {
    for (const vector of V1_VECTORS) expect(new Uint8Array(readFileSync(join(dir, vector.file))), vector.file).toEqual(fromBase64Url(vector.sealedB64u))
  })

  it('give their recorded verdicts', async () => {
    expect(V1_VECTORS.length).toBe(8)
    expect(V1_VECTORS.filter((vector) => vector.expected.ok).length).toBe(6)
    await expectRecordedVerdicts(V1_TRUST, V1_VECTORS)
  })
})
