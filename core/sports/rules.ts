/**
 * The Sports rules, version `sports/1`: what makes a sealed sports card's manifest well-formed and
 * how its claim hash binds the card. The claim hash is the SHA-256 of the RFC 8785 canonical JSON of
 * the claim (sport, collectible id and the card, whose `imageSha256` binds the artwork), so anyone
 * holding a manifest recomputes it; the card's Signal Circuit stats follow from that hash.
 */
import { sha256OfJson } from '../digest/sha256.js'

/** Every constant the rules use: their digest is the suite's `sourceDigest`. */
export const SPORTS_RULES = {
  version: 'sports/1',
  claimSchema: 'cairn.sports_card_claim.v1',
  sportPattern: '^[a-z][a-z0-9-]{1,31}$',
  collectibleIdMaxLength: 128,
  pricedBases: ['last-sale', 'auction', 'fixed-price'],
} as const

export const SPORTS_SOURCE_DIGEST = sha256OfJson(SPORTS_RULES)

export interface SportsCard {
  readonly name: string
  readonly team?: string
  readonly season?: string
  readonly position?: string
  readonly rarity?: string
  readonly imageSha256?: string
}

export interface SportsClaim {
  readonly sport: string
  readonly collectibleId: string
  readonly card: SportsCard
}

/** The parts of a manifest the rules judge (CairnSportsCardManifest). */
export interface JudgedManifest extends SportsClaim {
  readonly claimHash: string
  readonly valueBasis: { readonly basis: string; readonly amountUsdCents?: string; readonly amountPhiMicro?: string; readonly asOf?: string }
}

/** A rule a manifest breaks, by id (stable: vectors and clients match on it). */
export type Violation = 'sport-slug' | 'collectible-id-length' | 'claim-hash-mismatch' | 'priced-basis-needs-amount' | 'priced-basis-needs-as-of' | 'unpriced-basis-has-amount' | 'amount-not-whole'

/** @example claimHashOf({ sport: 'baseball', collectibleId: 'topps-1952-311', card: { name: 'Mickey Mantle' } }) */
export function claimHashOf(claim: SportsClaim): string {
  return sha256OfJson({ schema: SPORTS_RULES.claimSchema, sport: claim.sport, collectibleId: claim.collectibleId, card: claim.card })
}

const SPORT = new RegExp(SPORTS_RULES.sportPattern)
const WHOLE = /^(0|[1-9][0-9]*)$/

/** Every rule `manifest` breaks, in a fixed order; empty when it is well-formed. */
export function violationsOf(manifest: JudgedManifest): readonly Violation[] {
  const found: Violation[] = []
  if (!SPORT.test(manifest.sport)) found.push('sport-slug')
  if (manifest.collectibleId.length === 0 || manifest.collectibleId.length > SPORTS_RULES.collectibleIdMaxLength) found.push('collectible-id-length')
  if (claimHashOf(manifest) !== manifest.claimHash) found.push('claim-hash-mismatch')
  const { basis, amountUsdCents, amountPhiMicro, asOf } = manifest.valueBasis
  const amounts = [amountUsdCents, amountPhiMicro].filter((amount): amount is string => amount !== undefined)
  if ((SPORTS_RULES.pricedBases as readonly string[]).includes(basis)) {
    if (amounts.length === 0) found.push('priced-basis-needs-amount')
    if (asOf === undefined) found.push('priced-basis-needs-as-of')
  } else if (amounts.length > 0 || asOf !== undefined) found.push('unpriced-basis-has-amount')
  if (amounts.some((amount) => !WHOLE.test(amount))) found.push('amount-not-whole')
  return found
}
