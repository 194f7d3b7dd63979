/**
 * Webhook endpoint management (Business tier; spends no credits): create (the secret shown once),
 * list, update, delete and rotate the secret. Each write is one commit guarded by the version read.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { conflict, invalidInput, notFound, type DomainError } from '../errors/domain-error.js'
import { newId } from '../oidc/secrets.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { isPublishedEventType, WEBHOOK_EVENT_TYPES } from './event-types.js'
import { businessAccountOf } from '../auth/business-account.js'
import { endpointWire, webhookEndpoints, WEBHOOK_ENDPOINTS, type EndpointRecord } from './records.js'
import { newWebhookSecret } from './signature.js'
import { checkWebhookUrl } from './webhook-url.js'

const NO_STORE = { 'cache-control': 'no-store' } as const
/** One account's endpoints: enough for any integration, bounded so a list is one page. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 50
const MAX_DESCRIPTION = 500

/** @example await createWebhookEndpoint({ body: { url: 'https://hooks.example.com/cairn' }, principal, … }, deps) */
export const createWebhookEndpoint: UseCaseFor<'createWebhookEndpoint'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const body = request.body
  const checked = checkEndpointFields(deps, { url: body.url, eventTypes: body.eventTypes, description: body.description })
  if (E.isLeft(checked)) return checked
  const existing = await deps.store.query(WEBHOOK_ENDPOINTS, { index: 'by_owner', equals: [owner.right], limit: MAX_ENDPOINTS_PER_ACCOUNT })
  if (existing.items.length >= MAX_ENDPOINTS_PER_ACCOUNT) return E.left(conflict(`An account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`))
  const now = deps.clock.now()
  const endpoint: EndpointRecord = {
    id: newId(deps, 'whe_'),
    ownerId: owner.right,
    url: checked.right.url!,
    eventTypes: checked.right.eventTypes ?? [...WEBHOOK_EVENT_TYPES],
    enabled: body.enabled ?? true,
    description: checked.right.description ?? null,
    secret: newWebhookSecret(deps.entropy),
    createdAtMs: now,
    updatedAtMs: now,
    failingSinceMs: null,
    disabledReason: null,
  }
  const outcome = await deps.store.commit([webhookEndpoints.put(endpoint.id, endpoint, { kind: 'absent' })])
  if (!outcome.ok) return E.left(conflict('The endpoint could not be stored; try again'))
  return E.right(json({ ok: true, endpoint: endpointWire(endpoint), secret: endpoint.secret }, NO_STORE))
}

/** @example await listWebhookEndpoints({ principal, … }, deps) */
export const listWebhookEndpoints: UseCaseFor<'listWebhookEndpoints'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const page = await deps.store.query(WEBHOOK_ENDPOINTS, { index: 'by_owner', equals: [owner.right], limit: MAX_ENDPOINTS_PER_ACCOUNT })
  const endpoints = page.items.map((doc) => endpointWire(webhookEndpoints.decode(doc)))
  return E.right(json({ ok: true, endpoints, eventTypes: [...WEBHOOK_EVENT_TYPES] }, NO_STORE))
}

/** @example await updateWebhookEndpoint({ params: { endpointId }, body: { enabled: false }, principal, … }, deps) */
export const updateWebhookEndpoint: UseCaseFor<'updateWebhookEndpoint'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const checked = checkEndpointFields(deps, request.body)
  if (E.isLeft(checked)) return checked
  return changeEndpoint(deps, owner.right, request.params.endpointId, (endpoint, now) => {
    const enabled = request.body.enabled ?? endpoint.enabled
    return {
      ...endpoint,
      url: checked.right.url ?? endpoint.url,
      eventTypes: checked.right.eventTypes ?? endpoint.eventTypes,
      description: checked.right.description ?? endpoint.description,
      enabled,
      // Enabling again starts a fresh run: old failures no longer count toward disabling it.
      ...(enabled && !endpoint.enabled ? { failingSinceMs: null, disabledReason: null } : {}),
      updatedAtMs: now,
    }
  }, (endpoint) => ({ ok: true, endpoint: endpointWire(endpoint) }))
}

/** @example await rotateWebhookSecret({ params: { endpointId }, principal, … }, deps) */
export const rotateWebhookSecret: UseCaseFor<'rotateWebhookSecret'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  return changeEndpoint(deps, owner.right, request.params.endpointId, (endpoint, now) => ({ ...endpoint, secret: newWebhookSecret(deps.entropy), updatedAtMs: now }), (endpoint) => ({
    ok: true,
    endpoint: endpointWire(endpoint),
    secret: endpoint.secret,
  }))
}

/** @example await deleteWebhookEndpoint({ params: { endpointId }, principal, … }, deps) */
export const deleteWebhookEndpoint: UseCaseFor<'deleteWebhookEndpoint'> = async (request, deps) => {
  const owner = businessAccountOf(request.principal)
  if (E.isLeft(owner)) return owner
  const found = await ownedEndpoint(deps, owner.right, request.params.endpointId)
  if (E.isLeft(found)) return found
  // Pending deliveries of a deleted endpoint are abandoned by the worker when it finds the endpoint gone.
  const outcome = await deps.store.commit([{ kind: 'delete', collection: WEBHOOK_ENDPOINTS, key: found.right.record.id, expect: { kind: 'version', version: found.right.version } }])
  if (!outcome.ok) return E.left(conflict('The endpoint changed while it was being deleted; try again'))
  return E.right(json({ ok: true, deleted: found.right.record.id }, NO_STORE))
}

/** The caller's endpoint, or 404 (another account's endpoint is not revealed). */
export async function ownedEndpoint(deps: Pick<CoreDeps, 'store'>, ownerId: string, endpointId: string): Promise<Either<DomainError, { record: EndpointRecord; version: number }>> {
  const doc = await webhookEndpoints.get(deps.store, endpointId)
  if (!doc || doc.value.ownerId !== ownerId) return E.left(notFound('No webhook endpoint with this id belongs to this account'))
  return E.right({ record: doc.value, version: doc.version })
}

async function changeEndpoint<Body>(
  deps: CoreDeps,
  ownerId: string,
  endpointId: string,
  change: (endpoint: EndpointRecord, now: number) => EndpointRecord,
  answer: (endpoint: EndpointRecord) => Body,
) {
  const found = await ownedEndpoint(deps, ownerId, endpointId)
  if (E.isLeft(found)) return found
  const next = change(found.right.record, deps.clock.now())
  const outcome = await deps.store.commit([webhookEndpoints.put(next.id, next, { kind: 'version', version: found.right.version })])
  if (!outcome.ok) return E.left(conflict('The endpoint changed at the same time; read it again and retry'))
  return E.right(json(answer(next), NO_STORE))
}

interface EndpointFields {
  readonly url?: string | undefined
  readonly eventTypes?: readonly string[] | undefined
  readonly description?: string | undefined
}

function checkEndpointFields(deps: Pick<CoreDeps, 'config'>, fields: EndpointFields): Either<DomainError, EndpointFields> {
  let url: string | undefined
  if (fields.url !== undefined) {
    const checked = checkWebhookUrl(fields.url, deps.config.deployment.webhooks ?? {})
    if (E.isLeft(checked)) return checked
    url = checked.right.toString()
  }
  if (fields.eventTypes !== undefined) {
    const unknown = fields.eventTypes.filter((type) => !isPublishedEventType(type))
    if (unknown.length > 0) return E.left(invalidInput(`eventTypes may name only published types (${WEBHOOK_EVENT_TYPES.join(', ')}); unknown: ${unknown.join(', ').slice(0, 200)}`))
    if (fields.eventTypes.length === 0) return E.left(invalidInput('eventTypes must name at least one type; disable the endpoint instead'))
  }
  if (fields.description !== undefined && (fields.description.length > MAX_DESCRIPTION || /[\u0000-\u001f\u007f]/.test(fields.description))) {
    return E.left(invalidInput(`description must be at most ${MAX_DESCRIPTION} characters without control characters`))
  }
  return E.right({ url, eventTypes: fields.eventTypes === undefined ? undefined : [...new Set(fields.eventTypes)], description: fields.description })
}
