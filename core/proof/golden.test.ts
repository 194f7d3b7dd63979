/** The golden vectors in core/proof/golden/ are exactly what sealing produces, and verify as recorded. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildGoldenVectors, vectorsModule } from '../../conformance/proof/golden.js'
import { fromBase64Url } from './bytes.js'
import { GOLDEN_TRUST, GOLDEN_VECTORS } from './golden/vectors.js'
import { verifyArtifact } from './verify.js'

const dir = join(import.meta.dirname, 'golden')

describe('golden vectors of cairn.proof.v1', () => {
  it('regenerate byte for byte (run `npm run golden:proof` after a deliberate format change)', async () => {
    const { trust, vectors } = await buildGoldenVectors()
    for (const vector of vectors) expect(new Uint8Array(readFileSync(join(dir, vector.file))), vector.file).toEqual(vector.bytes)
    expect(readFileSync(join(dir, 'vectors.ts'), 'utf8')).toBe(vectorsModule(trust, vectors))
  })

  it('give their recorded verdicts', async () => {
    expect(GOLDEN_VECTORS.length).toBe(8)
    for (const vector of GOLDEN_VECTORS) {
      const verdict = await verifyArtifact(fromBase64Url(vector.sealedB64u)!, GOLDEN_TRUST)
      expect({ ok: verdict.ok, kind: verdict.kind, errors: verdict.errors }, vector.name).toEqual(vector.expected)
    }
    expect(GOLDEN_VECTORS.filter((vector) => vector.expected.ok).length).toBe(6)
  })
})
