/**
 * Compares two release records field by field. Evidence stays per dimension; the migration that
 * governs is the target's declared plan, never one inferred from the order of the releases.
 */
import { EVIDENCE_DIMENSIONS, RELEASES, type EvidenceDimension, type EvidenceStatus, type ReleaseRecord } from './records.js'

export interface ReleaseComparison {
  readonly from: string
  readonly to: string
  readonly changes: readonly { readonly field: 'title' | 'releasedAt' | 'summary'; readonly from: string; readonly to: string }[]
  readonly packages: {
    readonly added: readonly { readonly name: string; readonly version: string }[]
    readonly removed: readonly { readonly name: string; readonly version: string }[]
    readonly changed: readonly { readonly name: string; readonly from: string; readonly to: string }[]
  }
  readonly evidence: Readonly<Record<EvidenceDimension, { readonly from: EvidenceStatus; readonly to: EvidenceStatus }>>
  readonly migration: ReleaseRecord['migration']
}

const bareVersion = (version: string) => version.toLowerCase().replace(/^v/, '')
const byVersion = new Map(RELEASES.map((release) => [release.version, release]))
/** The first release of each bare version wins, as a scan in order would find it. */
const byBareVersion = new Map([...RELEASES].reverse().map((release) => [bareVersion(release.version), release]))

/**
 * Finds a release by version: exact first, then ignoring case and a leading "v"
 * (so `129.0.0`, `v129.0.0` and `V129.0.0` all name v129.0.0). Looked up, not scanned: every
 * `GET /releases/{version}` asks.
 */
export function findRelease(version: string): ReleaseRecord | undefined {
  return byVersion.get(version) ?? byBareVersion.get(bareVersion(version))
}

/** @example compareReleases(findRelease('v108.0.0')!, findRelease('v129.0.0')!) */
export function compareReleases(from: ReleaseRecord, to: ReleaseRecord): ReleaseComparison {
  const fields = ['title', 'releasedAt', 'summary'] as const
  const fromPackages = new Map(from.packages.map((p) => [p.name, p.version]))
  const toPackages = new Map(to.packages.map((p) => [p.name, p.version]))
  return {
    from: from.version,
    to: to.version,
    changes: fields.filter((f) => from[f] !== to[f]).map((field) => ({ field, from: from[field], to: to[field] })),
    packages: {
      added: to.packages.filter((p) => !fromPackages.has(p.name)),
      removed: from.packages.filter((p) => !toPackages.has(p.name)),
      changed: to.packages
        .filter((p) => fromPackages.has(p.name) && fromPackages.get(p.name) !== p.version)
        .map((p) => ({ name: p.name, from: fromPackages.get(p.name)!, to: p.version })),
    },
    evidence: Object.fromEntries(
      EVIDENCE_DIMENSIONS.map((d) => [d, { from: from.evidence[d].status, to: to.evidence[d].status }]),
    ) as ReleaseComparison['evidence'],
    migration: to.migration,
  }
}
