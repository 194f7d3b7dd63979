/**
 * Access grants to a domain's private additions. A grant names its issuer, one viewer subject, the
 * namespaces whose `grant`-visibility payloads it opens (only those its issuer owns: a grant opens
 * what the grantor owns, nothing of anyone else's), and the viewer's access key (an EC P-256 public key:
 * payloads are wrapped for it, and only its private half opens them). Like additions, grants are
 * written by committed staged plans (grant-events.ts: events of the `cairn.access-grants`
 * namespace grant and revoke) and by `grantDomainAccess` for embedders and tests. A handle is 256
 * random bits, stored only as its key (`grantKeyOf`, a SHA-256); the grant head digests the grant's
 * bindings, so a viewer pins exactly the grant it was given.
 */
import { createPublicKey } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { isRight } from 'fp-ts/lib/Either.js'
import type { Write } from '../../../ports/store.js'
import { V124PortableSealedArtifact } from '../../contract/schemas/runtime/sources.js'
import { sha256Hex, sha256OfJson } from '../../digest/sha256.js'
import { fromBase64Url, toBase64Url } from '../../encoding/base64url.js'
import { conflict, invalidInput, unprocessable, type DomainError } from '../../errors/domain-error.js'
import type { CoreDeps } from '../../usecases/use-case.js'
import { DOMAIN_REGISTRY, domainKeyOf, NAMESPACE_NAME, RUNTIME_DOMAINS, RUNTIME_ID, type DomainRef, type PortableSealedArtifact } from './domain-records.js'
import { domainGrants, type AccessKeyJwk, type GrantRecord } from './grant-record.js'


export type { AccessKeyJwk, GrantRecord }

export interface GrantInput {
  /** The grantor: the grant opens only `grant` payloads this subject owns. */
  readonly issuerSubjectId: string
  readonly viewerSubjectId: string
  /** Namespaces whose `grant` payloads the viewer may read (1 to 64). */
  readonly namespaces: readonly string[]
  readonly accessKeyJwk: JsonWebKey
  /** The sealed grant the owner issued, and the viewer subject's sealed source, carried back to the viewer. */
  readonly accessGrantSourceArtifact: PortableSealedArtifact
  readonly viewerSubjectSourceArtifact: PortableSealedArtifact
}

export const grantKeyOf = (handle: string): string => sha256Hex(`cairn.v124.domain_access_grant_handle:${handle}`)

/** The head of an access key: SHA-256 of its canonical public members. @example accessKeyHeadOf({ kty: 'EC', crv: 'P-256', x, y }) */
export function accessKeyHeadOf(jwk: AccessKeyJwk): string {
  return sha256OfJson({ schema: 'cairn.v124.access_key', kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y })
}

/** The key's public members, or undefined when it is not a valid P-256 point. */
export function p256PublicKey(jwk: JsonWebKey): AccessKeyJwk | undefined {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string' || 'd' in jwk) return undefined
  if (!/^[A-Za-z0-9_-]{43}$/.test(jwk.x) || !/^[A-Za-z0-9_-]{43}$/.test(jwk.y)) return undefined
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' })
  } catch {
    return undefined
  }
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }
}

function artifactProblem(name: string, artifact: PortableSealedArtifact): string | undefined {
  if (!isRight(V124PortableSealedArtifact.decode(artifact))) return `${name} must be a V124PortableSealedArtifact`
  const bytes = fromBase64Url(artifact.exactBytesB64u)
  return bytes && sha256Hex(bytes) === artifact.artifactSha256 ? undefined : `${name}.artifactSha256 is not the SHA-256 of its exact bytes`
}

/** What a grant says, checked: a viewer subject id, 1–64 namespace names (sorted, distinct) and a P-256 public key. */
export interface GrantTerms {
  readonly viewerSubjectId: string
  readonly namespaces: readonly string[]
  readonly accessKeyJwk: AccessKeyJwk
}

/**
 * Pure: the terms of a grant from unchecked input, or a sentence naming the first member that is
 * wrong (a grant made by `grantDomainAccess` and one made by a plan's event are checked alike).
 */
export function checkedGrantTerms(input: { readonly viewerSubjectId: unknown; readonly namespaces: unknown; readonly accessKeyJwk: unknown }): GrantTerms | string {
  if (typeof input.viewerSubjectId !== 'string' || !RUNTIME_ID.test(input.viewerSubjectId)) return 'viewerSubjectId must be a runtime id'
  const names = Array.isArray(input.namespaces) ? [...new Set<unknown>(input.namespaces)] : []
  if (names.length === 0 || names.length > DOMAIN_REGISTRY.maxNamespacesPerDomain || names.some((name) => typeof name !== 'string' || !NAMESPACE_NAME.test(name))) {
    return `namespaces must be 1 to ${DOMAIN_REGISTRY.maxNamespacesPerDomain} namespace names`
  }
  const jwk = input.accessKeyJwk
  const key = typeof jwk === 'object' && jwk !== null && !Array.isArray(jwk) ? p256PublicKey(jwk as JsonWebKey) : undefined
  if (!key) return 'accessKeyJwk must be an EC P-256 public JWK on the curve'
  return { viewerSubjectId: input.viewerSubjectId, namespaces: (names as string[]).sort(), accessKeyJwk: key }
}

/**
 * Grant `input.viewerSubjectId` access to the domain's private additions; one commit.
 *
 * @example const grant = await grantDomainAccess(deps, domain, { viewerSubjectId: 'sub_bob', namespaces: ['notes'], accessKeyJwk, … })
 */
export async function grantDomainAccess(
  deps: Pick<CoreDeps, 'store' | 'clock' | 'entropy'>,
  domain: DomainRef,
  input: GrantInput,
): Promise<Either<DomainError, { readonly accessGrantHandle: string; readonly grantHead: string; readonly accessKeyHead: string }>> {
  const checked = checkedGrantTerms(input)
  if (typeof checked === 'string') return E.left(invalidInput(checked))
  if (typeof input.issuerSubjectId !== 'string' || !RUNTIME_ID.test(input.issuerSubjectId)) return E.left(invalidInput('issuerSubjectId must be a runtime id'))
  const problem = artifactProblem('accessGrantSourceArtifact', input.accessGrantSourceArtifact) ?? artifactProblem('viewerSubjectSourceArtifact', input.viewerSubjectSourceArtifact)
  if (problem) return E.left(unprocessable(problem))
  if (!(await deps.store.get(RUNTIME_DOMAINS, domainKeyOf(domain)))) return E.left(unprocessable('No such domain'))
  const accessGrantHandle = toBase64Url(deps.entropy.bytes(32))
  const record = grantRecordOf(domain, { ...input, ...checked, issuerSubjectId: input.issuerSubjectId }, { grantedAtMs: deps.clock.now() })
  const outcome = await deps.store.commit([grantWrite(grantKeyOf(accessGrantHandle), record)])
  if (!outcome.ok) return E.left(conflict('A grant with this handle exists; ask again'))
  return E.right({ accessGrantHandle, grantHead: record.grantHead, accessKeyHead: record.accessKeyHead })
}

/**
 * Pure: the stored grant for checked input (sorted distinct namespaces, a P-256 public key). A grant
 * made by a domain event has that event's domain head as its grant head (the viewer reads it from
 * the replay); one made by `grantDomainAccess` digests its bindings and time.
 */
export function grantRecordOf(
  domain: DomainRef, input: GrantTerms & Pick<GrantInput, 'issuerSubjectId' | 'accessGrantSourceArtifact' | 'viewerSubjectSourceArtifact'>, at: { readonly grantedAtMs: number; readonly grantHead?: string },
): GrantRecord {
  const { grantedAtMs } = at
  const accessKeyHead = accessKeyHeadOf(input.accessKeyJwk)
  const grantHead = at.grantHead ?? sha256OfJson({
    schema: 'cairn.v124.domain_access_grant', applicationId: domain.applicationId, domainId: domain.domainId, issuerSubjectId: input.issuerSubjectId, viewerSubjectId: input.viewerSubjectId,
    namespaces: input.namespaces, accessKeyHead, accessGrantSourceArtifactSha256: input.accessGrantSourceArtifact.artifactSha256, grantedAtMs,
  })
  return {
    domainKey: domainKeyOf(domain), applicationId: domain.applicationId, domainId: domain.domainId, issuerSubjectId: input.issuerSubjectId,
    viewerSubjectId: input.viewerSubjectId, namespaces: [...input.namespaces],
    accessKeyJwk: input.accessKeyJwk, accessKeyHead, grantHead, grantedAtMs,
    accessGrantSourceArtifact: { ...input.accessGrantSourceArtifact }, viewerSubjectSourceArtifact: { ...input.viewerSubjectSourceArtifact },
  }
}

/** The write that stores a new grant under its key (failing if the key is taken). */
export const grantWrite = (grantKey: string, record: GrantRecord): Write => domainGrants.put(grantKey, record, { kind: 'absent' })
