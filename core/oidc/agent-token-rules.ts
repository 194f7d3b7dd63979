/**
 * What an agent token request may ask for: known scopes the user may grant (and the client may
 * carry, when it names a registered client), a short label, a few audit labels, a bounded life.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../contract/components.js'
import { forbidden, invalidInput, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { isDisplayText } from '../encoding/display-text.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { findClient } from './clients.js'
import { AGENT_TOKEN_DEFAULT_SECONDS, AGENT_TOKEN_MAX_SECONDS, AGENT_TOKEN_MIN_SECONDS } from './lifetimes.js'
import { refusedScopes, unknownScopes } from './scopes.js'

export const MAX_LABEL_LENGTH = 200
export const MAX_AUDIT_LABELS = 16
const AUDIT_LABEL_NAME = /^[A-Za-z0-9._-]{1,64}$/
const MAX_AUDIT_LABEL_VALUE = 256
/** Agent client ids: printable, no spaces, at most 128 characters. */
const AGENT_CLIENT_ID = /^[\x21-\x7e]{1,128}$/

export interface AgentTokenTerms {
  readonly clientId: string
  readonly scopes: readonly string[]
  readonly label: string
  readonly auditLabels: Readonly<Record<string, string>>
  readonly lifetimeSeconds: number
}

/**
 * @example checkAgentTokenRequest({ clientId: 'ci', scopes: ['cairn:record'] }, { businessTier: false }, deps) // right(terms)
 */
export function checkAgentTokenRequest(
  body: ComponentType<'OidcAgentTokenRequest'>,
  user: { readonly businessTier: boolean },
  deps: Pick<CoreDeps, 'config'>,
): Either<DomainError, AgentTokenTerms> {
  if (!AGENT_CLIENT_ID.test(body.clientId)) return E.left(invalidInput('clientId must be 1 to 128 printable characters without spaces'))
  if (body.tokenId !== undefined) return E.left(invalidInput('tokenId names a token to revoke (DELETE); a new token gets its own'))
  const scopes = [...new Set(body.scopes ?? [])]
  if (scopes.length === 0) return E.left(invalidInput('scopes must name at least one scope'))
  const unknown = unknownScopes(scopes)
  if (unknown.length > 0) return E.left(invalidInput(`Unknown scope: ${unknown.slice(0, 5).map(quoteInput).join(' ')}`))
  const refused = refusedScopes(scopes, findClient(deps, body.clientId), user)
  if (refused.length > 0) return E.left(forbidden(`This token may not carry: ${refused.join(' ')}`))
  const label = body.label ?? ''
  if (label.length > MAX_LABEL_LENGTH || !isDisplayText(label)) {
    return E.left(invalidInput(`label must be at most ${MAX_LABEL_LENGTH} characters without control, format or separator characters`))
  }
  const auditLabels = body.auditLabels ?? {}
  const entries = Object.entries(auditLabels)
  if (entries.length > MAX_AUDIT_LABELS) return E.left(invalidInput(`auditLabels may hold at most ${MAX_AUDIT_LABELS} entries`))
  for (const [name, value] of entries) {
    if (!AUDIT_LABEL_NAME.test(name)) return E.left(invalidInput('auditLabels names must be 1 to 64 letters, digits, dots, dashes or underscores'))
    if (value.length > MAX_AUDIT_LABEL_VALUE || !isDisplayText(value)) {
      return E.left(invalidInput(`auditLabels values must be at most ${MAX_AUDIT_LABEL_VALUE} characters without control, format or separator characters`))
    }
  }
  const lifetimeSeconds = body.expiresIn ?? AGENT_TOKEN_DEFAULT_SECONDS
  if (lifetimeSeconds < AGENT_TOKEN_MIN_SECONDS || lifetimeSeconds > AGENT_TOKEN_MAX_SECONDS) {
    return E.left(invalidInput(`expiresIn must be from ${AGENT_TOKEN_MIN_SECONDS} to ${AGENT_TOKEN_MAX_SECONDS} seconds`))
  }
  return E.right({ clientId: body.clientId, scopes, label, auditLabels: { ...auditLabels }, lifetimeSeconds })
}
