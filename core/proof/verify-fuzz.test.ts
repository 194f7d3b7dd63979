/**
 * The verifier answers every input with a verdict: any single-byte change, truncation or insertion
 * of a sealed golden vector is `ok: false` with errors, and it never throws (so the verify routes
 * can never answer 5XX for bad bytes).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromBase64Url } from './bytes.js'
import { GOLDEN_TRUST, GOLDEN_VECTORS } from './golden/v2/vectors.js'
import { GOLDEN_VECTORS as V1_VECTORS } from './golden/vectors.js'
import { verifyArtifact } from './verify.js'

// Both versions' sealed files (the golden sets share their keys): a v2 package's signed CRC-32 must catch what v1's recomputed one did.
const sealedVectors = [
  ...V1_VECTORS.map((vector) => ({ ...vector, name: `cairn.proof.v1 ${vector.name}` })),
  ...GOLDEN_VECTORS.map((vector) => ({ ...vector, name: `cairn.proof.v2 ${vector.name}` })),
].filter((vector) => vector.expected.ok).map((vector) => ({ name: vector.name, bytes: fromBase64Url(vector.sealedB64u)! }))

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
)

function mutate(bytes: Uint8Array, change: { kind: 'flip' | 'truncate' | 'insert'; at: number; bit?: number; byte?: number }): Uint8Array {
  const at = change.at % bytes.length
  if (change.kind === 'flip') {
    const out = bytes.slice()
    out[at] = out[at]! ^ (1 << change.bit!)
    return out
  }
  if (change.kind === 'truncate') return bytes.slice(0, at)
  return new Uint8Array([...bytes.subarray(0, at), change.byte!, ...bytes.subarray(at)])
}

describe('verifier under mutation', () => {
  for (const vector of sealedVectors) {
    it(`${vector.name}: every changed file is refused with a reason, never an exception`, async () => {
      await fc.assert(
        fc.asyncProperty(mutation, async (change) => {
          const verdict = await verifyArtifact(mutate(vector.bytes, change), GOLDEN_TRUST)
          expect(verdict.ok).toBe(false)
          expect(verdict.errors.length).toBeGreaterThan(0)
        }),
        { numRuns: 150 },
      )
    })
  }
})

describe('a proof whose JSON has no RFC 8785 form', () => {
  // Found by the property above (seed -1618940642): a changed byte made a proof number parse to
  // Infinity, which canonical JSON cannot write; the verifier threw instead of refusing.
  it('is refused as malformed, never an exception', async () => {
    const svg = sealedVectors.find((vector) => vector.name.includes('svg'))!
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        const verdict = await verifyArtifact(mutate(svg.bytes, change), GOLDEN_TRUST)
        expect(verdict.ok).toBe(false)
      }),
      { seed: -1618940642, path: '63:30', endOnFailure: true },
    )
  })

  // Found by the property above (seed -128432137): in a sealed JSON file, a byte inserted into a
  // number of the proof member (`1E782…`) made it parse to Infinity, and the JSON carrier threw.
  it('is refused as malformed in a JSON file too, wherever the number is changed', async () => {
    const json = sealedVectors.filter((vector) => vector.name.includes('json'))
    expect(json.length).toBeGreaterThan(0)
    for (const vector of json) {
      for (let at = 0; at < vector.bytes.length; at++) {
        const verdict = await verifyArtifact(mutate(vector.bytes, { kind: 'insert', at, byte: 0x45 }), GOLDEN_TRUST)
        expect(verdict.ok).toBe(false)
      }
    }
  })
})
