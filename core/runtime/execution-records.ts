/**
 * Staged executions as stored, and where idempotency coordinates point now (the latest attempt
 * staged under them). `stagerSubjectId` is absent on records stored before a staged plan belonged
 * to the person who staged it; such a record is nobody's, so every caller is refused it.
 */
import * as t from 'io-ts'
import { V124CommittedExecutionOutcome, V124DurableExecutionHandle, V124NoncommittedExecutionOutcome, V124OperationPlan } from '../contract/schemas/runtime/execution.js'
import { nullable, typedCollection } from '../usecases/typed-collection.js'
import { executionCoordinatesSpec, executionsSpec } from './runtime-collections.js'

const StagerCodec = t.partial({ stagerSubjectId: t.string })

/** `outcome`: the terminal outcome (committed, zero-write, cancelled); null while staged. */
const ExecutionRecordCodec = t.readonly(t.intersection([
  t.type({
    applicationId: t.string, executionId: t.string, coordinatesKey: t.string, plan: V124OperationPlan, handle: V124DurableExecutionHandle,
    status: t.keyof({ staged: null, committed: null, 'zero-write': null, cancelled: null }), stagedAtMs: t.number, expiresAtMs: t.number,
    outcome: nullable(t.union([V124CommittedExecutionOutcome, V124NoncommittedExecutionOutcome])),
  }),
  StagerCodec,
]))
export type ExecutionRecord = t.TypeOf<typeof ExecutionRecordCodec>
export type ExecutionStatus = ExecutionRecord['status']

const CoordinatesRecordCodec = t.readonly(t.intersection([
  t.type({ applicationId: t.string, domainId: t.string, operationKind: t.string, semanticIdempotencyKey: t.string, executionId: t.string, attempts: t.number }),
  StagerCodec,
]))
export type CoordinatesRecord = t.TypeOf<typeof CoordinatesRecordCodec>

export const executions = typedCollection(executionsSpec, ExecutionRecordCodec)
export const executionCoordinates = typedCollection(executionCoordinatesSpec, CoordinatesRecordCodec)
