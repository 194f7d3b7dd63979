export { createCairn, type Cairn, type CallInput, type TypedReply } from './create-cairn.js'
export type { CairnOptions } from './cairn-options.js'
export { DEFAULT_BASE_URL, AUTHENTICATOR } from './compose.js'
export { TOKENS } from '../../ports/tokens.js'
