/**
 * The static release archive (spec, Versioning 3–5). Evidence is kept in seven independent
 * dimensions and never merged: a tag does not imply a publication, a deployment does not imply a
 * smoke test. This deployment holds none of that evidence itself, so every dimension says
 * `unverified` with what would establish it, rather than inferring it from chronology.
 */

export const EVIDENCE_DIMENSIONS = [
  'repositoryCommit', 'gitTag', 'packagePublication', 'deployment', 'productionSmoke', 'signedAttestation', 'visualEvidence',
] as const
export type EvidenceDimension = (typeof EVIDENCE_DIMENSIONS)[number]

export type EvidenceStatus = 'verified' | 'unverified' | 'missing' | 'not-applicable'

export interface Evidence {
  readonly status: EvidenceStatus
  readonly reference?: string
  readonly checkedAt?: string
}

export interface ReleaseRecord {
  readonly version: string
  readonly title: string
  readonly releasedAt: string
  readonly summary: string
  readonly packages: readonly { readonly name: string; readonly version: string }[]
  readonly migration: { readonly required: boolean; readonly steps: readonly string[] }
  readonly evidence: Readonly<Record<EvidenceDimension, Evidence>>
}

const UNVERIFIED: Readonly<Record<EvidenceDimension, Evidence>> = {
  repositoryCommit: { status: 'unverified', reference: 'commit digest not held by this deployment' },
  gitTag: { status: 'unverified', reference: 'tag not held by this deployment' },
  packagePublication: { status: 'unverified', reference: 'registry publication not checked by this deployment' },
  deployment: { status: 'unverified', reference: 'deployment record not held by this deployment' },
  productionSmoke: { status: 'unverified', reference: 'no production smoke result recorded' },
  signedAttestation: { status: 'unverified', reference: 'no signed attestation recorded' },
  visualEvidence: { status: 'unverified', reference: 'no visual evidence recorded' },
}

/** Newest first. */
export const RELEASES: readonly ReleaseRecord[] = [
  {
    version: 'v129.0.0',
    title: 'V124-era contract, coordinated release',
    releasedAt: '2026-06-25T00:00:00.000Z',
    summary: 'OpenAPI document version 129.0.0 (info version 2026-06-25.v2), generated from one source; coordinated across three packages.',
    packages: [
      { name: 'cairn-server', version: '129.0.0' },
      { name: 'cairn-sdk', version: '129.0.0' },
      { name: 'cairn-verifier', version: '129.0.0' },
    ],
    migration: { required: false, steps: [] },
    evidence: UNVERIFIED,
  },
  {
    version: 'V124.1.0',
    title: 'Convergence release',
    releasedAt: '2026-03-01T00:00:00.000Z',
    summary: 'Converges the runtime envelopes (authority sessions, verified replay, staged execution) on one signed transport binding.',
    packages: [
      { name: 'cairn-server', version: '124.1.0' },
      { name: 'cairn-sdk', version: '124.1.0' },
    ],
    migration: { required: true, steps: ['Verify held sealed artifacts offline before upgrading clients', 'Move clients to the /api/sdk/v1/ runtime routes'] },
    evidence: UNVERIFIED,
  },
  {
    version: 'v108.0.0',
    title: 'Earlier release',
    releasedAt: '2025-09-01T00:00:00.000Z',
    summary: 'Earlier record of the public developer API.',
    packages: [{ name: 'cairn-server', version: '108.0.0' }],
    migration: { required: false, steps: [] },
    evidence: UNVERIFIED,
  },
]
