/**
 * Namespace resolution, both routes: named namespaces of one subject at one exact head, with the
 * registry and reducer digests pinned. A head the subject's stream never had, a registry or reducer
 * other than expected, or a name not defined at that head is refused — never answered at another
 * head. `POST /api/sdk/v1/subjects/{subjectId}/namespaces/resolve` answers the plain
 * SubjectNamespaceResolutionResponse; `POST /api/sdk/v1/subjects/namespaces/resolve` (V124) also
 * pins the admitted proof (the source at that head) and the ownership head, answers byte-exact
 * projections with the source artifact's exact bytes from custody, in a signed envelope. Both only
 * read; an application reads the namespaces of the person its token acts for.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { RUNTIME_AUTHORITY } from '../contract/schemas/runtime/authority.js'
import { sha256OfJson } from '../digest/sha256.js'
import { conflict, forbidden, invalidInput, unavailable, unprocessable, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { revocationHeadOf } from './revocation-head.js'
import { runtimeCaller, type RuntimeCaller } from './runtime-caller.js'
import { signEnvelope } from './signed-envelope.js'
import { portableSourceOf, REDUCER_DIGEST, REGISTRY_DIGEST, subjectProjection, type NamespaceProjection, type SubjectProjection } from './subject-namespaces.js'

const NAME = /^[a-z][a-z0-9._-]{0,127}$/

/** The ownership head of a subject: its owner never changes, so it is the digest of that binding. */
export function ownershipHeadOf(subjectId: string, ownerUserId: string): string {
  return sha256OfJson({ schema: 'cairn.v124.subject_ownership', subjectId, ownerUserId })
}

interface Resolved {
  readonly projection: SubjectProjection
  readonly namespaces: NamespaceProjection[]
}

/** The shared checks: the caller's own subject, the pins, the exact head and every name defined there. */
async function resolveAt(
  deps: CoreDeps, caller: RuntimeCaller,
  ask: { readonly subjectId: string; readonly atHead: string; readonly names: readonly string[]; readonly expectedRegistryDigest?: string | undefined; readonly expectedReducerDigest?: string | undefined },
): Promise<Either<DomainError, Resolved>> {
  if (ask.subjectId !== caller.subject) return E.left(forbidden('An application resolves the namespaces of the person its access token acts for only'))
  const badName = ask.names.find((name) => !NAME.test(name))
  if (badName !== undefined) return E.left(invalidInput(`names must be namespace names (lowercase, 1-128 characters); ${quoteInput(badName)} is not`))
  if (ask.expectedRegistryDigest !== undefined && ask.expectedRegistryDigest !== REGISTRY_DIGEST) return E.left(conflict('expectedRegistryDigest is not the registry this deployment resolves with; nothing was resolved'))
  if (ask.expectedReducerDigest !== undefined && ask.expectedReducerDigest !== REDUCER_DIGEST) return E.left(conflict('expectedReducerDigest is not the reducer this deployment resolves with; nothing was resolved'))
  const projection = await subjectProjection(deps, ask.subjectId, ask.atHead)
  if (!projection) return E.left(conflict('atHead is not a head of this subject; nothing was resolved at another head'))
  const namespaces: NamespaceProjection[] = []
  for (const name of [...new Set(ask.names)]) {
    const ns = projection.namespaces.get(name)
    if (!ns) return E.left(unprocessable(`The subject has no namespace ${name} at this head`))
    namespaces.push(ns)
  }
  return E.right({ projection, namespaces })
}

const wireNamespace = (ns: NamespaceProjection) => ({ name: ns.name, exactBytesB64u: ns.exactBytesB64u, digest: ns.digest, head: ns.head })

/** @example await resolveSubjectNamespaces({ params: { subjectId: 'usr_ada' }, body: { atHead, names: ['profile'] }, principal: bearer, … }, deps) */
export const resolveSubjectNamespaces: UseCaseFor<'resolveSubjectNamespaces'> = async (request, deps) => {
  const body = request.body
  const caller = runtimeCaller(request.principal, body.applicationId)
  if (E.isLeft(caller)) return caller
  const resolved = await resolveAt(deps, caller.right, { subjectId: request.params.subjectId, ...body })
  if (E.isLeft(resolved)) return resolved
  const namespaces = resolved.right.namespaces.map(wireNamespace)
  const bound = { subjectId: request.params.subjectId, atHead: body.atHead, registryDigest: REGISTRY_DIGEST, reducerDigest: REDUCER_DIGEST, namespaces }
  return E.right(json({
    ok: true as const,
    ...bound,
    authenticationDigest: sha256OfJson({ schema: 'cairn.v124.subject_namespace_authentication', ...bound }),
    authority: RUNTIME_AUTHORITY,
  }, { 'cache-control': 'no-store' }))
}

/** @example await resolveNamespaces({ body: { applicationId, subjectId, atHead, names, expectedAdmittedProofDigest, expectedOwnershipHead, expectedRegistryDigest, expectedReducerDigest }, principal: bearer, … }, deps) */
export const resolveNamespaces: UseCaseFor<'resolveNamespaces'> = async (request, deps) => {
  const body = request.body
  const caller = runtimeCaller(request.principal, body.applicationId)
  if (E.isLeft(caller)) return caller
  const resolved = await resolveAt(deps, caller.right, body)
  if (E.isLeft(resolved)) return resolved
  const source = resolved.right.projection.latest
  if (!source) return E.left(conflict('The subject has published no source at this head, so there is no admitted proof to resolve against'))
  const ownershipHead = ownershipHeadOf(body.subjectId, source.ownerUserId)
  if (body.expectedAdmittedProofDigest !== source.artifactSha256) return E.left(conflict('expectedAdmittedProofDigest is not the source admitted at this head; nothing was resolved'))
  if (body.expectedOwnershipHead !== ownershipHead) return E.left(conflict('expectedOwnershipHead is not the subject\'s ownership head; nothing was resolved'))
  const bytes = await deps.blobs.get(source.artifactSha256)
  if (!bytes) return E.left(unavailable('The admitted source\'s bytes are not in custody at this moment'))
  const unsigned = {
    schema: 'cairn.v124.namespace_resolution_wire' as const,
    subjectId: body.subjectId,
    atHead: body.atHead,
    admittedProofDigest: source.artifactSha256,
    ownershipHead,
    registryDigest: REGISTRY_DIGEST,
    reducerDigest: REDUCER_DIGEST,
    namespaces: resolved.right.namespaces.map(wireNamespace),
    authority: RUNTIME_AUTHORITY,
    sourceArtifact: portableSourceOf(source, bytes),
  }
  const wire = { ...unsigned, resolutionDigest: sha256OfJson(unsigned) }
  const envelope = await signEnvelope(deps, 'cairn.v124.signed_namespace_resolution_envelope', wire, {
    operationId: 'resolveNamespaces', params: request.params, body: request.body, applicationId: caller.right.applicationId, audience: caller.right.applicationId,
    revocationHead: await revocationHeadOf(deps, caller.right.applicationId),
  })
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}
