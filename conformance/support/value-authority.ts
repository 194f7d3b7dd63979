/**
 * The authority value execution names (`authorityDigest`): a real authority session, opened through
 * the runtime's own use case after ProofConsent by the person's bound ID key, consented to
 * `cairn:value.execute`. Value tests and scenarios name its `sessionBindingDigest`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Principal } from '../../core/auth/principal.js'
import { runtimeUseCases } from '../../core/runtime/index.js'
import type { CoreDeps, UseCase } from '../../core/usecases/use-case.js'
import { createIdentityHolder, openSessionBody } from '../../hosts/http/runtime-test-support.js'

/**
 * Opens a session for the bearer's person (`usr_<name>`, an existing identity gains an ID key) and
 * application; returns its `sessionBindingDigest`.
 *
 * @example const authorityDigest = await openValueAuthority(deps, valueBearer(ada))
 */
export async function openValueAuthority(deps: CoreDeps, principal: Principal, scopes: readonly string[] = ['cairn:value.execute']): Promise<string> {
  if (principal.kind !== 'bearer' || !principal.subject.startsWith('usr_')) throw new Error('openValueAuthority needs the bearer of a usr_<name> person')
  const holder = await createIdentityHolder(deps, principal.subject.slice('usr_'.length))
  const body = openSessionBody(holder, { applicationId: principal.clientId, consent: scopes, rails: ['value'] })
  const opened = await (runtimeUseCases.openAuthoritySession as unknown as UseCase)({ params: {}, query: {}, body, principal }, deps)
  if (E.isLeft(opened) || opened.right.kind !== 'json') throw new Error(`the authority session did not open: ${JSON.stringify(opened)}`)
  return (opened.right.body as { wire: { sessionBindingDigest: string } }).wire.sessionBindingDigest
}
