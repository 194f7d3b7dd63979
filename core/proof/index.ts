/** Sealed proof objects (docs/proof-format.md): carriers, sealing, the offline verifier. */
export { PROOF_FORMAT, SEAL_LEAF_KIND, ProofObject, ProofStatement, type SealKind, type CarrierName, type ProofBundle, type SealLeaf } from './format.js'
export { carriers, carrierForPayload, carrierOfArtifact, PNG_PROOF_CHUNK, JSON_PROOF_MEMBER, ZIP_PROOF_ENTRY } from './carriers/index.js'
export { prepareSeal, sealableOf, signStatement, assembleSealed, sealLeafOf, alreadySealed, verifyPathOf, BUNDLE_KIND, type SealInput, type PreparedSeal, type Sealable } from './seal.js'
export { openArtifact, unseal, type OpenedArtifact, type OpenFailure } from './open-artifact.js'
export { verifyArtifact, type TrustMaterial, type Verdict, type VerdictDetails } from './verify.js'
export { countersign, type OwnerSigner } from './countersign.js'
