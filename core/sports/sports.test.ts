/**
 * The Sports rules: claim hashes anyone recomputes, manifest rules with stable violation ids, the
 * suite passing its published vectors (and failing, not crashing, on a vector that no longer
 * holds), and the four conformance routes reporting live, recording runs and rolling them up
 * apart from the Signal Circuit's.
 */
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { conformanceCollections } from '../signal/index.js'
import { sportsSuite } from './conformance-suite.js'
import { claimHashOf, SPORTS_SOURCE_DIGEST, violationsOf } from './rules.js'
import { SPORTS_VECTORS } from './vectors.js'

const T0 = Date.parse('2026-06-25T12:00:00Z')
let runtime: RuntimeTestWorld
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  await runtime.deps.store.declare(conformanceCollections)
})

describe('Sports rules', () => {
  it('passes every published vector', () => {
    const checks = sportsSuite.run()
    expect(checks).toHaveLength(SPORTS_VECTORS.claims.length + SPORTS_VECTORS.stats.length + SPORTS_VECTORS.manifests.length)
    expect(checks.filter((c) => !c.passed)).toEqual([])
  })

  it('pins its rules: the source digest is the SHA-256 of the canonical rules (golden)', () => {
    expect(SPORTS_SOURCE_DIGEST).toBe('a5e8272ddf25fddf3f2be1df240e452845aa2c44e7467fb8afcaaa82cbf39941')
  })

  it('reports a vector that no longer holds as a failed check with its reason', () => {
    const tampered = { ...SPORTS_VECTORS, claims: [{ ...SPORTS_VECTORS.claims[0]!, claimHash: '0'.repeat(64) }] }
    const checks = (sportsSuite.run as (vectors: typeof SPORTS_VECTORS) => ReturnType<typeof sportsSuite.run>)(tampered)
    expect(checks.find((c) => c.id === 'claim-1')).toMatchObject({ passed: false, detail: expect.stringMatching(/expected 0{64}/) })
  })

  it('binds every part of the claim: changing any field changes the hash, and the manifest then breaks claim-hash-mismatch (property)', () => {
    const claim = fc.record({ sport: fc.constantFrom('baseball', 'soccer', 'cricket'), collectibleId: fc.string({ minLength: 1, maxLength: 40 }), card: fc.record({ name: fc.string({ minLength: 1 }), team: fc.string() }) })
    fc.assert(fc.property(claim, fc.string({ minLength: 1 }), (c, otherName) => {
      fc.pre(otherName !== c.card.name)
      const hash = claimHashOf(c)
      const manifest = { ...c, claimHash: hash, valueBasis: { basis: 'none' } }
      expect(violationsOf(manifest)).toEqual([])
      expect(violationsOf({ ...manifest, card: { ...c.card, name: otherName } })).toContain('claim-hash-mismatch')
    }))
  })
})

describe('Sports conformance routes', () => {
  it('report live with the sports revision, record each run apart from the Signal Circuit, and roll them up per day', async () => {
    const report = bodyOf<{ status: string; passed: number; total: number; schema: string }>(await runtime.call('getSportsConformance'))
    expect(report).toMatchObject({ ok: true, schema: 'cairn.conformance.sports.v1', status: 'pass', revision: 'sports/1', sourceDigest: SPORTS_SOURCE_DIGEST })
    expect(report.passed).toBe(report.total)
    await runtime.call('getSignalCircuitConformance')
    ;(runtime.deps.clock as FixedClock).advance(86_400_000)
    await runtime.call('getSportsConformance')
    const history = bodyOf<{ count: number; snapshots: { generatedAt: string }[] }>(await runtime.call('getSportsConformanceHistory'))
    expect(history.snapshots.map((s) => s.generatedAt)).toEqual(['2026-06-26T12:00:00.000Z', '2026-06-25T12:00:00.000Z'])
    expect(bodyOf(await runtime.call('getSportsConformanceRollups'))).toMatchObject({ count: 2, rollups: [{ date: '2026-06-25', passing: 1 }, { date: '2026-06-26', passing: 1 }] })
    expect(bodyOf(await runtime.call('getSportsConformanceBadge'))).toEqual({
      ok: true, schemaVersion: 1, label: 'sports conformance', message: `${report.total}/${report.total} passing`, color: 'brightgreen', status: 'pass',
    })
  })
})
