/**
 * The 106 runtime component schemas (every `V124*` and `V125*` name the spec lists), each with
 * exactly the spec's required list. Rules for property types: docs/decisions.md.
 */
import { artifactComponents } from './artifacts.js'
import { authoritySessionComponents } from './authority-sessions.js'
import { capabilityComponents } from './capabilities.js'
import { digestComponents } from './digests.js'
import { domainComponents } from './domains.js'
import { envelopeComponents } from './envelopes.js'
import { executionComponents } from './execution.js'
import { identifierComponents } from './identifiers.js'
import { lawfulActionComponents } from './lawful-actions.js'
import { namespaceComponents } from './namespaces.js'
import { portableComponents } from './portable.js'
import { privateAdditionComponents } from './private-additions.js'
import { qualificationComponents } from './qualification.js'
import { recipientComponents } from './recipients.js'
import { sourceComponents } from './sources.js'
import { transportComponents } from './transport.js'

/** All runtime components by name (106). */
export const runtimeComponents = {
  ...digestComponents,
  ...identifierComponents,
  ...transportComponents,
  ...authoritySessionComponents,
  ...domainComponents,
  ...privateAdditionComponents,
  ...recipientComponents,
  ...namespaceComponents,
  ...sourceComponents,
  ...capabilityComponents,
  ...artifactComponents,
  ...portableComponents,
  ...executionComponents,
  ...qualificationComponents,
  ...envelopeComponents,
  ...lawfulActionComponents,
} as const

export { RUNTIME_AUTHORITY, RuntimeAuthority } from './authority.js'
