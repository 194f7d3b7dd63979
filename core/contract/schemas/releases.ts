/**
 * Release archive components (`GET /releases`, `/releases/{version}`, `/releases/compare`).
 * Evidence stays in seven independent dimensions, never merged into one verdict; a migration is
 * the release's declared plan, never inferred from chronology. Mirrors core/releases/records.ts.
 */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { IsoTimestamp, NonEmptyString, patternString } from '../primitives.js'

/** A release version as published, e.g. `v129.0.0` or `V124.1.0`. */
export const ReleaseVersion = patternString('ReleaseVersion', /^[vV][0-9]+\.[0-9]+\.[0-9]+$/, { examples: ['v129.0.0', 'V124.1.0'] })

const EvidenceStatus = t.keyof({ verified: null, unverified: null, missing: null, 'not-applicable': null })

const Evidence = struct('ReleaseEvidence', { status: EvidenceStatus }, { reference: t.string, checkedAt: IsoTimestamp })

const Package = struct('ReleasePackage', { name: NonEmptyString, version: NonEmptyString })

const MigrationPlan = struct('ReleaseMigrationPlan', { required: t.boolean, steps: t.array(t.string) })

/** One value per evidence dimension, all seven always present. */
function perDimension<C extends t.Mixed>(name: string, codec: C) {
  return struct(name, {
    repositoryCommit: codec,
    gitTag: codec,
    packagePublication: codec,
    deployment: codec,
    productionSmoke: codec,
    signedAttestation: codec,
    visualEvidence: codec,
  })
}

/** A release record: what shipped, how to migrate, and its evidence per dimension. */
export const ReleaseRecord = struct(
  'ReleaseRecord',
  {
    version: ReleaseVersion,
    title: t.string,
    releasedAt: IsoTimestamp,
    summary: t.string,
    packages: t.array(Package),
    migration: MigrationPlan,
    evidence: perDimension('ReleaseEvidenceDimensions', Evidence),
  },
  {},
  'Release record. `migration` is the declared plan (its `steps` govern). `evidence` has seven independent dimensions (repositoryCommit, gitTag, packagePublication, deployment, productionSmoke, signedAttestation, visualEvidence), each with its own `status`: one never implies another.',
)

const FieldChange = struct('ReleaseFieldChange', { field: t.keyof({ title: null, releasedAt: null, summary: null }), from: t.string, to: t.string })
const PackageChange = struct('ReleasePackageChange', { name: NonEmptyString, from: NonEmptyString, to: NonEmptyString })
const StatusChange = struct('ReleaseEvidenceChange', { from: EvidenceStatus, to: EvidenceStatus })

/** Field-by-field comparison of two releases, evidence compared per dimension. */
export const ReleaseComparison = struct(
  'ReleaseComparison',
  {
    from: ReleaseVersion,
    to: ReleaseVersion,
    changes: t.array(FieldChange),
    packages: struct('ReleasePackageDiff', { added: t.array(Package), removed: t.array(Package), changed: t.array(PackageChange) }),
    evidence: perDimension('ReleaseEvidenceComparison', StatusChange),
    migration: MigrationPlan,
  },
  {},
  'Comparison. `changes` lists differing fields; `packages` what was added, removed or changed; `evidence` compares each dimension separately; `migration` is the target release\'s declared plan.',
)

export const releasesComponents = { ReleaseRecord, ReleaseComparison } as const
