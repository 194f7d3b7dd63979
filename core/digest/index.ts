export { canonicalJson, canonicalJsonBytes } from './canonical-json.js'
export { sha256Hex, sha256OfJson } from './sha256.js'
export { chainHead, entryDigestOf, verifyChain } from './chain.js'
