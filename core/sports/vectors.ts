/**
 * Sports conformance vectors (sports/1): claim hashes of published claims (checkable with any
 * SHA-256 and RFC 8785 implementation), the Signal Circuit stats those hashes give, and manifests
 * with the exact rules they break. Kept as published data: a change here is a change of rules.
 */
import type { JudgedManifest, SportsClaim, Violation } from './rules.js'

const MANTLE: SportsClaim = { sport: 'baseball', collectibleId: 'topps-1952-311', card: { name: 'Mickey Mantle', team: 'New York Yankees', season: '1952', rarity: 'grail' } }
const MESSI: SportsClaim = { sport: 'soccer', collectibleId: 'panini-2022-qatar-ARG-19', card: { name: 'Lionel Messi', team: 'Argentina', season: '2022', position: 'forward' } }
const JORDAN: SportsClaim = { sport: 'basketball', collectibleId: 'fleer-1986-57', card: { name: 'Michael Jordan', imageSha256: 'a'.repeat(64) } }

const MANTLE_HASH = '5a5c182795c0fc3578eee62f498f5f8347e5299c8a7e1813f9299b1c10e7857f'
const MESSI_HASH = '3853ec072b5c58f54678d0392d5539e8cb227d782995f5fb0c63eff3b13c9c35'
const JORDAN_HASH = '5f8749156637901a3139389cc2d577a0af1829afb687d2154eaf76f435b7bbad'

const manifest = (claim: SportsClaim, claimHash: string, valueBasis: JudgedManifest['valueBasis']): JudgedManifest => ({ ...claim, claimHash, valueBasis })

export const SPORTS_VECTORS: {
  readonly claims: readonly { readonly id: string; readonly claim: SportsClaim; readonly claimHash: string }[]
  readonly stats: readonly { readonly id: string; readonly claimHash: string; readonly expected: { power: number; guard: number; tempo: number; charge: number } }[]
  readonly manifests: readonly { readonly id: string; readonly manifest: JudgedManifest; readonly violations: readonly Violation[] }[]
} = {
  claims: [
    { id: 'claim-1', claim: MANTLE, claimHash: MANTLE_HASH },
    { id: 'claim-2', claim: MESSI, claimHash: MESSI_HASH },
    { id: 'claim-3', claim: JORDAN, claimHash: JORDAN_HASH },
  ],
  stats: [
    { id: 'card-stats-1', claimHash: MANTLE_HASH, expected: { power: 10, guard: 4, tempo: 1, charge: 26 } },
    { id: 'card-stats-2', claimHash: MESSI_HASH, expected: { power: 4, guard: 5, tempo: 3, charge: 27 } },
    { id: 'card-stats-3', claimHash: JORDAN_HASH, expected: { power: 8, guard: 2, tempo: 2, charge: 30 } },
  ],
  manifests: [
    { id: 'manifest-valid-last-sale', manifest: manifest(MANTLE, MANTLE_HASH, { basis: 'last-sale', amountUsdCents: '1260000000', asOf: '2022-08-28T00:00:00.000Z' }), violations: [] },
    { id: 'manifest-valid-none', manifest: manifest(MESSI, MESSI_HASH, { basis: 'none' }), violations: [] },
    { id: 'manifest-claim-hash-mismatch', manifest: manifest(JORDAN, MANTLE_HASH, { basis: 'none' }), violations: ['claim-hash-mismatch'] },
    { id: 'manifest-sport-slug', manifest: manifest({ ...MESSI, sport: 'Soccer' }, MESSI_HASH, { basis: 'none' }), violations: ['sport-slug', 'claim-hash-mismatch'] },
    { id: 'manifest-priced-without-amount', manifest: manifest(JORDAN, JORDAN_HASH, { basis: 'auction' }), violations: ['priced-basis-needs-amount', 'priced-basis-needs-as-of'] },
    { id: 'manifest-unpriced-with-amount', manifest: manifest(MESSI, MESSI_HASH, { basis: 'none', amountPhiMicro: '5' }), violations: ['unpriced-basis-has-amount'] },
    { id: 'manifest-fractional-amount', manifest: manifest(MANTLE, MANTLE_HASH, { basis: 'fixed-price', amountUsdCents: '99.5', asOf: '2026-01-01T00:00:00.000Z' }), violations: ['amount-not-whole'] },
  ],
}
