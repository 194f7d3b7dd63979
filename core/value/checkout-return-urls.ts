/**
 * Where a payment processor may send the payer back after a checkout: only to this deployment's
 * origin or an origin its OAuth clients registered (their redirect URIs). Any other URL would make
 * Cairn's checkout an open redirect through the processor's trusted pages (CWE-601).
 */
import type { Principal } from '../auth/principal.js'
import type { CoreDeps } from '../usecases/use-case.js'

/**
 * A sentence naming the first return URL outside the allowed origins, or `undefined`. A Connect
 * checkout (a bearer token) may return to its own client's origins; a public embed to any client
 * the deployment registered.
 *
 * @example returnUrlProblem(deps, principal, { successUrl: 'https://evil.example/' }) // 'successUrl must be on this deployment's origin …'
 */
export function returnUrlProblem(
  deps: Pick<CoreDeps, 'config'>, principal: Principal, urls: { readonly successUrl?: string; readonly cancelUrl?: string },
): string | undefined {
  const allowed = allowedOrigins(deps, principal.kind === 'bearer' ? principal.clientId : undefined)
  for (const field of ['successUrl', 'cancelUrl'] as const) {
    const url = urls[field]
    if (url !== undefined && !allowed.has(originOf(url) ?? '')) {
      return `${field} must be on this deployment's origin (${originOf(deps.config.baseUrl) ?? deps.config.baseUrl}) or an origin of ${principal.kind === 'bearer' ? 'the client\'s' : 'a registered client\'s'} redirect URIs`
    }
  }
  return undefined
}

function allowedOrigins(deps: Pick<CoreDeps, 'config'>, clientId: string | undefined): Set<string> {
  const clients = (deps.config.deployment.clients ?? []).filter((client) => clientId === undefined || client.clientId === clientId)
  const origins = [deps.config.baseUrl, ...clients.flatMap((client) => client.redirectUris)].map(originOf)
  return new Set(origins.filter((origin): origin is string => origin !== undefined))
}

/** `scheme://host[:port]` as the URL Standard serialises it; `undefined` for an opaque origin or no URL. */
function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined
  const origin = new URL(url).origin
  return origin === 'null' ? undefined : origin
}
