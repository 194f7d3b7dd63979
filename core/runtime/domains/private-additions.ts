/**
 * `POST /api/sdk/v1/domains/verified-private-additions`: a domain's additions after an exact head,
 * for one viewer. The filter runs before anything private is read: the page is read from public
 * facts, `grantedSequences` (pure) decides which additions the viewer's grant opens, and only their
 * payloads are loaded and encrypted for the viewer's access key. Every other addition is answered
 * exactly as the public replay answers it (`additionKind: public`), so a viewer without the grant
 * learns nothing of a payload, not even that it exists or its length. Anything that is not the
 * viewer's to see — session, grant, subject or grant head, domain, head — answers the same
 * reason-free signed failure wire.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ComponentType } from '../../contract/components.js'
import { RUNTIME_AUTHORITY } from '../../contract/schemas/runtime/authority.js'
import { fromBase64Url } from '../../encoding/base64url.js'
import { json, type CoreDeps, type UseCaseFor } from '../../usecases/use-case.js'
import { revocationHeadOf } from '../revocation-head.js'
import { runtimeCaller } from '../runtime-caller.js'
import { signEnvelope } from '../signed-envelope.js'
import { grantKeyOf, type GrantRecord } from './access-grants.js'
import { additionKeyOf, type AdditionRecord } from './domain-records.js'
import { domainGrants } from './grant-record.js'
import { domainPrivate } from './stored-records.js'
import { encryptForViewer } from './private-envelope.js'
import { boundedRows, loadDomain, loadPage, pageHeads, type LoadedPage } from './replay.js'
import { subjectHeadOf, viewerOfSession } from './viewer-session.js'

type Wire = ComponentType<'V124PrivateDomainAdditionsWire'>
type PrivateAddition = ComponentType<'V124PrivateDomainAddition'>

const FAILED: Wire = { schema: 'cairn.v124.private_domain_additions_failure_wire', status: 'failed' }

/**
 * Pure: the sequences whose payload this viewer and grant may read: the viewer's own payloads, and
 * `grant` payloads in the grant's namespaces that the grant's issuer owns (a grant opens only what
 * its grantor owns).
 */
export function grantedSequences(rows: readonly AdditionRecord[], viewerSubjectId: string, grant: Pick<GrantRecord, 'issuerSubjectId' | 'namespaces'>): ReadonlySet<number> {
  const granted = new Set<number>()
  for (const row of rows) {
    const access = row.privateAccess
    if (!access) continue
    const owner = access.ownerSubjectId === viewerSubjectId
    const grantorOwns = access.ownerSubjectId === grant.issuerSubjectId
    if (owner || (access.visibility === 'grant' && grantorOwns && grant.namespaces.includes(row.namespace))) granted.add(row.sequence)
  }
  return granted
}

/** The viewer, grant and page, or undefined when anything is not the viewer's to see. */
async function loadViewerPage(request: Parameters<UseCaseFor<'listPrivateDomainAdditions'>>[0], deps: CoreDeps, caller: { applicationId: string; subject: string; scopes: readonly string[] }) {
  const body = request.body
  const viewer = await viewerOfSession(deps, caller, body.authoritySessionHandle)
  if (viewer === undefined || viewer !== body.expectedViewerSubjectId) return undefined
  const grant = (await domainGrants.get(deps.store, grantKeyOf(body.accessGrantHandle)))?.value
  if (!grant || grant.applicationId !== caller.applicationId || grant.domainId !== body.domainId || grant.viewerSubjectId !== viewer || grant.grantHead !== body.expectedGrantHead) return undefined
  const viewerSubjectHead = await subjectHeadOf(deps, viewer)
  if (viewerSubjectHead !== body.expectedViewerSubjectHead) return undefined
  const record = await loadDomain(deps, { applicationId: caller.applicationId, domainId: body.domainId })
  if (E.isLeft(record)) return undefined
  const page = await loadPage(deps, record.right, body.afterHead)
  if (E.isLeft(page)) return undefined
  return { viewer, viewerSubjectHead, grant, page: page.right }
}

/** Builds the success wire; `payloads` holds exactly the granted additions' payloads. */
function successWire(deps: Pick<CoreDeps, 'entropy'>, page: LoadedPage, taken: readonly AdditionRecord[], viewer: string, viewerSubjectHead: string, grant: GrantRecord, payloads: ReadonlyMap<number, Uint8Array>): Wire {
  const heads = pageHeads(page, taken)
  const additions = taken.map((row): PrivateAddition => {
    const common = {
      appendId: row.appendId, sequence: row.sequence, cursor: String(row.sequence), exactPublicEventBytesB64u: row.exactEventBytesB64u,
      eventDigest: row.eventDigest, priorHead: row.priorHead, newHead: row.newHead, domainHead: heads.head!,
    }
    const payload = payloads.get(row.sequence)
    if (payload === undefined || !row.privateAccess) return { additionKind: 'public', ...common }
    const privateEnvelope = encryptForViewer(deps.entropy, payload, {
      schema: 'cairn.v124.private_addition_aad', applicationId: page.record.applicationId, domainId: page.record.domainId, worldId: page.record.domainId,
      visibilityMode: row.privateAccess.visibility, appendId: row.appendId, sequence: row.sequence, eventDigest: row.eventDigest, priorHead: row.priorHead,
      newHead: row.newHead, domainHead: heads.head!, viewerSubjectId: viewer, viewerSubjectHead, grantHead: grant.grantHead, accessKeyHead: grant.accessKeyHead,
    }, grant.accessKeyJwk)
    return {
      additionKind: 'encrypted', ...common, viewerSubjectId: viewer, viewerSubjectHead, grantHead: grant.grantHead, accessKeyHead: grant.accessKeyHead,
      privateEnvelope, recipientWrapDigest: privateEnvelope.recipientWrap.wrapDigest,
    }
  })
  return {
    schema: 'cairn.v124.private_domain_additions_success_wire',
    status: 'succeeded',
    applicationId: page.record.applicationId,
    domainId: page.record.domainId,
    afterHead: heads.afterHead,
    afterCursor: heads.afterCursor,
    cursor: heads.cursor,
    priorHead: heads.priorHead,
    head: heads.head,
    viewerSubjectId: viewer,
    viewerSubjectHead,
    grantHead: grant.grantHead,
    accessKeyHead: grant.accessKeyHead,
    additions,
    sourceArtifact: page.record.sourceArtifact,
    viewerSubjectSourceArtifact: grant.viewerSubjectSourceArtifact,
    accessGrantSourceArtifact: grant.accessGrantSourceArtifact,
    authority: RUNTIME_AUTHORITY,
  }
}

/** @example await listPrivateDomainAdditions({ body, principal: bearer, params: {}, query: {} }, deps) */
export const listPrivateDomainAdditions: UseCaseFor<'listPrivateDomainAdditions'> = async (request, deps) => {
  const caller = runtimeCaller(request.principal, request.body.applicationId)
  if (E.isLeft(caller)) return caller
  const loaded = await loadViewerPage(request, deps, caller.right)
  let wire: Wire = FAILED
  if (loaded) {
    const taken = boundedRows(loaded.page.rows)
    const granted = grantedSequences(taken, loaded.viewer, loaded.grant)
    const domain = { applicationId: loaded.page.record.applicationId, domainId: loaded.page.record.domainId }
    const docs = await Promise.all([...granted].map(async (sequence) => [sequence, await domainPrivate.get(deps.store, additionKeyOf(domain, sequence))] as const))
    const payloads = new Map<number, Uint8Array>()
    for (const [sequence, doc] of docs) {
      const bytes = doc && fromBase64Url(doc.value.payloadB64u)
      if (!bytes) throw new Error(`Private payload ${sequence} of ${domain.applicationId}:${domain.domainId} is missing`)
      payloads.set(sequence, bytes)
    }
    wire = successWire(deps, loaded.page, taken, loaded.viewer, loaded.viewerSubjectHead, loaded.grant, payloads)
  }
  const envelope = await signEnvelope(deps, 'cairn.v124.signed_private_domain_additions_envelope', wire, {
    operationId: 'listPrivateDomainAdditions', params: request.params, body: request.body, applicationId: caller.right.applicationId, audience: caller.right.applicationId,
    revocationHead: await revocationHeadOf(deps, caller.right.applicationId),
  })
  return E.right(json(envelope, { 'cache-control': 'no-store' }))
}
