import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { ReleaseComparison, ReleaseRecord } from '../contract/schemas/releases.js'
import { compareReleases, findRelease } from './compare.js'
import { EVIDENCE_DIMENSIONS, RELEASES } from './records.js'
import { releaseRoutes } from './routes.js'

const route = (path: string) => releaseRoutes.find((r) => r.path === path)!

describe('the release archive', () => {
  it('holds v129.0.0 (three packages), V124.1.0 and v108.0.0, newest first, each a valid ReleaseRecord', () => {
    expect(RELEASES.map((r) => r.version)).toEqual(['v129.0.0', 'V124.1.0', 'v108.0.0'])
    expect(RELEASES[0]!.packages).toHaveLength(3)
    for (const release of RELEASES) expect(E.isRight(ReleaseRecord.decode(release))).toBe(true)
  })

  it('keeps seven evidence dimensions, each with its own status', () => {
    for (const release of RELEASES) expect(Object.keys(release.evidence).sort()).toEqual([...EVIDENCE_DIMENSIONS].sort())
  })

  it('finds versions exactly, then ignoring case and a leading v', () => {
    expect(findRelease('V124.1.0')?.version).toBe('V124.1.0')
    expect(findRelease('124.1.0')?.version).toBe('V124.1.0')
    expect(findRelease('v129.0.0')?.version).toBe('v129.0.0')
    expect(findRelease('1.0.0')).toBeUndefined()
  })

  it('compares field by field, evidence per dimension, with the target\'s declared migration', () => {
    const comparison = compareReleases(findRelease('v108.0.0')!, findRelease('V124.1.0')!)
    expect(E.isRight(ReleaseComparison.decode(comparison))).toBe(true)
    expect(comparison.packages.added).toEqual([{ name: 'cairn-sdk', version: '124.1.0' }])
    expect(comparison.packages.changed).toEqual([{ name: 'cairn-server', from: '108.0.0', to: '124.1.0' }])
    expect(comparison.evidence.gitTag).toEqual({ from: 'unverified', to: 'unverified' })
    expect(comparison.migration).toEqual(findRelease('V124.1.0')!.migration)
    expect(comparison.changes.map((c) => c.field)).toEqual(['title', 'releasedAt', 'summary'])
  })

  it('answers the compare route, refusing a missing `from` and unknown versions', async () => {
    expect(E.isLeft(await route('/releases/compare').handle({ params: {}, query: {} }))).toBe(true)
    const unknown = await route('/releases/compare').handle({ params: {}, query: { from: 'v1.0.0' } })
    expect(E.isLeft(unknown) && unknown.left._tag).toBe('NotFound')
    const latest = await route('/releases/compare').handle({ params: {}, query: { from: 'v108.0.0' } })
    expect(E.isRight(latest) && latest.right).toMatchObject({ body: { ok: true, comparison: { to: 'v129.0.0' } } })
  })

  it('answers one release and 404 for an unknown one', async () => {
    const one = await route('/releases/{version}').handle({ params: { version: 'v129.0.0' }, query: {} })
    expect(E.isRight(one) && one.right).toMatchObject({ body: { ok: true, release: { version: 'v129.0.0' } } })
    const none = await route('/releases/{version}').handle({ params: { version: 'v2.0.0' }, query: {} })
    expect(E.isLeft(none) && none.left._tag).toBe('NotFound')
  })
})
