/**
 * The Signal Circuit: the engine replays its published vectors, the simulation is bounded and
 * replays by seed, and the conformance routes report live, record real runs and roll them up.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { FixedClock } from '../../adapters/memory/index.js'
import { bodyOf } from '../../hosts/http/oidc-test-support.js'
import { createRuntimeTestWorld, type RuntimeTestWorld } from '../../hosts/http/runtime-test-support.js'
import { signalCircuitSuite } from './conformance-suites.js'
import { battle, RULES, SOURCE_DIGEST, statsOf } from './engine.js'
import { seededRng } from './prng.js'
import { simulateOdds, SIMULATION_BOUND } from './simulation.js'
import { SIGNAL_CIRCUIT_VECTORS } from './vectors.js'

const T0 = Date.parse('2026-06-25T12:00:00Z')
let runtime: RuntimeTestWorld
beforeEach(async () => {
  runtime = await createRuntimeTestWorld({ clock: new FixedClock(T0) })
  await runtime.deps.store.declare((await import('./conformance-history.js')).conformanceCollections)
})

describe('Signal Circuit engine', () => {
  it('passes every published vector', () => {
    const checks = signalCircuitSuite.run()
    expect(checks.length).toBe(SIGNAL_CIRCUIT_VECTORS.stats.length + SIGNAL_CIRCUIT_VECTORS.battles.length + SIGNAL_CIRCUIT_VECTORS.simulations.length)
    expect(checks.filter((c) => !c.passed)).toEqual([])
  })

  it('pins its rules: the source digest is the SHA-256 of the canonical rules (golden)', () => {
    expect(RULES.version).toBe('signal-circuit/1')
    expect(SOURCE_DIGEST).toBe('c28eba271af29839ac9ab7fcba0df2bcb1ed0b9591055fc1989d6cf673af428a')
  })

  it('draws uniformly in range and identically from the same seed (property)', () => {
    fc.assert(fc.property(fc.string(), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
      const a = seededRng(seed)
      const b = seededRng(seed)
      for (let i = 0; i < 20; i++) {
        const x = a.below(n)
        expect(x).toBe(b.below(n))
        expect(x >= 0 && x < n).toBe(true)
      }
    }))
  })

  it('ends every battle within the exchange limit with a winner holding charge (property)', () => {
    const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('hex'))
    fc.assert(fc.property(hash, hash, fc.string(), (a, b, seed) => {
      const result = battle(statsOf(a), statsOf(b), seededRng(seed))
      expect(result.exchanges).toBeGreaterThanOrEqual(1)
      expect(result.exchanges).toBeLessThanOrEqual(RULES.maxExchanges)
      if (result.winner !== 'draw') expect(result.chargeLeft[result.winner]).toBeGreaterThan(0)
    }))
  })

  it('refuses rounds outside the bound and replays the same seed to the same output', () => {
    expect(() => simulateOdds('x', 0)).toThrow(RangeError)
    expect(() => simulateOdds('x', SIMULATION_BOUND + 1)).toThrow(RangeError)
    expect(simulateOdds('replay-me', 250)).toEqual(simulateOdds('replay-me', 250))
    expect(simulateOdds('replay-me', 250).outputHash).not.toBe(simulateOdds('replay-me-too', 250).outputHash)
  })
})

describe('Signal Circuit routes', () => {
  it('simulates with seed replay, and refuses rounds over the bound with 400', async () => {
    const random = bodyOf<{ seed: string; rounds: number }>(await runtime.call('simulateSignalCircuitOdds'))
    expect(random.rounds).toBe(1000)
    expect(random.seed).toMatch(/^[A-Za-z0-9_-]{16}$/)
    const replay = bodyOf<{ odds: Record<string, string> }>(await runtime.call('simulateSignalCircuitOdds', { query: { seed: 'replay-me', rounds: '250' } }))
    expect(replay).toMatchObject({ ok: true, seed: 'replay-me', rounds: 250, bound: 10_000, outputHash: SIGNAL_CIRCUIT_VECTORS.simulations[1].expectedOutputHash, sourceDigest: SOURCE_DIGEST })
    const sum = Object.values(replay.odds).reduce((total, odd) => total + Number(odd), 0)
    expect(Math.abs(sum - 1)).toBeLessThan(0.0003)
    expect(await runtime.call('simulateSignalCircuitOdds', { query: { rounds: '10001' } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
    expect(await runtime.call('simulateSignalCircuitOdds', { query: { rounds: '0' } })).toEqual(E.left(expect.objectContaining({ _tag: 'InvalidInput' })))
  })

  it('reports live with revision anchors, records each run, and rolls them up per day', async () => {
    const report = bodyOf<{ status: string; passed: number; total: number; revision: string; sourceDigest: string }>(await runtime.call('getSignalCircuitConformance'))
    expect(report).toMatchObject({ ok: true, status: 'pass', revision: 'signal-circuit/1', sourceDigest: SOURCE_DIGEST })
    expect(report.passed).toBe(report.total)
    await runtime.call('getSignalCircuitConformance') // same minute: recorded once
    ;(runtime.deps.clock as FixedClock).advance(86_400_000)
    await runtime.call('getSignalCircuitConformance')
    const history = bodyOf<{ count: number; snapshots: { generatedAt: string; status: string }[] }>(await runtime.call('getSignalCircuitConformanceHistory'))
    expect(history.count).toBe(2)
    expect(history.snapshots.map((s) => s.generatedAt)).toEqual(['2026-06-26T12:00:00.000Z', '2026-06-25T12:00:00.000Z'])
    expect(bodyOf(await runtime.call('getSignalCircuitConformanceRollups'))).toMatchObject({
      days: 30, count: 2, rollups: [{ date: '2026-06-25', snapshots: 1, passing: 1, failing: 0 }, { date: '2026-06-26', snapshots: 1, passing: 1, failing: 0 }],
    })
    expect(bodyOf(await runtime.call('getSignalCircuitConformanceBadge'))).toEqual({
      ok: true, schemaVersion: 1, label: 'signal circuit conformance', message: `${report.total}/${report.total} passing`, color: 'brightgreen', status: 'pass',
    })
  })
})

