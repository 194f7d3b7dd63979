/** The Sports conformance suite: the sports/1 rules run live against their published vectors. */
import { statsOf } from '../signal/engine.js'
import { conformanceCheck, sameJson, type ConformanceSuite } from '../signal/conformance-suites.js'
import { claimHashOf, SPORTS_RULES, SPORTS_SOURCE_DIGEST, violationsOf } from './rules.js'
import { SPORTS_VECTORS } from './vectors.js'

export const sportsSuite: ConformanceSuite = {
  name: 'sports',
  label: 'sports',
  revision: SPORTS_RULES.version,
  sourceDigest: SPORTS_SOURCE_DIGEST,
  run: (vectors = SPORTS_VECTORS) => [
    ...vectors.claims.map((v) => conformanceCheck(v.id, `claim hash of ${v.claim.sport} ${v.claim.collectibleId}`, () => {
      const actual = claimHashOf(v.claim)
      return actual === v.claimHash ? { passed: true } : { passed: false, detail: `claimHash ${actual}, expected ${v.claimHash}` }
    })),
    ...vectors.stats.map((v) => conformanceCheck(v.id, `card stats from claim hash ${v.claimHash.slice(0, 8)}…`, () => {
      const actual = statsOf(v.claimHash)
      return sameJson(actual, v.expected) ? { passed: true } : { passed: false, detail: `expected ${JSON.stringify(v.expected)}, got ${JSON.stringify(actual)}` }
    })),
    ...vectors.manifests.map((v) => conformanceCheck(v.id, `manifest rules: ${v.violations.length === 0 ? 'well-formed' : v.violations.join(', ')}`, () => {
      const actual = violationsOf(v.manifest)
      return sameJson(actual, v.violations) ? { passed: true } : { passed: false, detail: `violations ${JSON.stringify(actual)}, expected ${JSON.stringify(v.violations)}` }
    })),
  ],
}
