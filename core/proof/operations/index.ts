/** The Verification operations and Connect record/seal/verify. */
import type { UseCaseRegistry } from '../../usecases/use-case.js'
import { getLegacySurface, getVerificationConformance } from './conformance.js'
import { connectRecord } from './connect-record.js'
import { connectSeal, sealDocument, sealOwnedAsset } from './seal-operations.js'
import { verifyClaim } from './verify-claim.js'
import { connectVerify, verifyDocument } from './verify-operations.js'

export const proofUseCases = {
  sealDocument, sealOwnedAsset, verifyDocument, verifyClaim, getVerificationConformance, getLegacySurface, connectRecord, connectSeal, connectVerify,
} as const satisfies UseCaseRegistry
