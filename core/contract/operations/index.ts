/** The contract table: all 108 operations, in the spec's order. */
import type { OperationSpec } from '../operation.js'
import { connectOperations } from './connect.js'
import { discoveryOperations } from './discovery.js'
import { identityOperations } from './identity.js'
import { lawfulEconomyOperations } from './lawful-economy.js'
import { paymentsOperations } from './payments.js'
import { productionOperations } from './production.js'
import { publicProofOperations } from './public-proof.js'
import { runtimeOperations } from './runtime.js'
import { signalOperations } from './signal.js'
import { verificationOperations } from './verification.js'
import { walletOperations } from './wallet.js'
import { worldOperations } from './world.js'

export const operations = [
  ...discoveryOperations,
  ...verificationOperations,
  ...identityOperations,
  ...connectOperations,
  ...walletOperations,
  ...publicProofOperations,
  ...paymentsOperations,
  ...signalOperations,
  ...worldOperations,
  ...runtimeOperations,
  ...lawfulEconomyOperations,
  ...productionOperations,
] as const satisfies readonly OperationSpec[]

/** The operation ids, as a union type (the library's typed calls). */
export type OperationId = (typeof operations)[number]['operationId']

/** The table row of one operation id. */
export type OperationOf<Id extends OperationId> = Extract<(typeof operations)[number], { readonly operationId: Id }>

/** Operations by `operationId`. */
export const operationsById: ReadonlyMap<string, OperationSpec> = new Map(operations.map((op): [string, OperationSpec] => [op.operationId, op]))
