/**
 * Operational qualification: for each requested operation, `available`, `degraded` or
 * `unavailable`, derived only from the scopes actually granted, dependency health and
 * authenticated evidence.
 */
import * as t from 'io-ts'
import { struct } from '../../define.js'
import { KaiUPulse, patternString } from '../../primitives.js'
import { RuntimeAuthority } from './authority.js'
import { V124Digest } from './digests.js'
import { V124ApplicationId } from './identifiers.js'
import { nullable, ScopeName, Slug, VersionLabel } from './values.js'

/** An operation as the contract table names it (its operationId, e.g. `stageExecution`). */
const OperationId = patternString('OperationId', /^[a-z][A-Za-z0-9]{0,127}$/, { description: 'operationId from the contract' })

/** The three qualification states (spec: States and transitions). */
const Availability = t.keyof({ available: null, degraded: null, unavailable: null }, 'V124Availability')

/** Which operations the caller wants qualified. */
export const V124OperationalQualificationRequest = struct(
  'V124OperationalQualificationRequest',
  { applicationId: V124ApplicationId, operations: t.array(OperationId) },
  {},
  'Ask whether operations (by operationId) are available, degraded or unavailable for this application.',
)

/** One operation's qualification; `reasonCode` is null exactly when `status` is `available`. */
export const V124OperationalCapability = struct(
  'V124OperationalCapability',
  {
    operation: OperationId,
    status: Availability,
    actualGrantedScopes: t.array(ScopeName),
    serviceVersion: VersionLabel,
    registryVersion: VersionLabel,
    reducerVersion: VersionLabel,
    publicDependencyHeads: t.record(Slug, V124Digest),
    dependencyHealth: t.record(Slug, Availability),
    reasonCode: nullable(
      t.keyof({ 'scope-not-granted': null, 'dependency-degraded': null, 'dependency-unavailable': null, 'evidence-unavailable': null, 'operation-unknown': null }),
    ),
    retry: t.boolean,
    evidence: t.array(V124Digest),
  },
  {},
  'Qualification of one operation from granted scopes, dependency health (name → state) and evidence digests. `retry` is true when asking again later may give a better status.',
)

/** The report over every requested operation. */
export const V124OperationalCapabilityReportWire = struct(
  'V124OperationalCapabilityReportWire',
  {
    schema: t.literal('cairn.v124.operational_capability_report_wire'),
    applicationId: V124ApplicationId,
    requestedOperations: t.array(OperationId),
    qualifiedAtKaiUPulse: KaiUPulse,
    results: t.array(V124OperationalCapability),
    reportDigest: V124Digest,
    authority: RuntimeAuthority,
  },
  {},
  'Operational qualification report: one result per requested operation. Coordination only.',
)

/** This file's components by name, spread into `runtimeComponents`. */
export const qualificationComponents = {
  V124OperationalQualificationRequest,
  V124OperationalCapability,
  V124OperationalCapabilityReportWire,
} as const
