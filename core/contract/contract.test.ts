/**
 * The contract table and the generated document against the spec's own tables, kept as data
 * beside this test (spec-facts/operations.json, schemas-required.json: copied verbatim from the
 * specification's tables), and against an independent OpenAPI 3.1 validator.
 */
import { readFileSync } from 'node:fs'
import { resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import SwaggerParser from '@apidevtools/swagger-parser'
import { components } from './components.js'
import { buildOpenApiDocument, CONTRACT_VERSION } from './openapi.js'
import { operations } from './operations/index.js'
import { SCOPES } from './scopes.js'
import { TAGS } from './operation.js'
import { acceptedBodies } from './accepted-bodies.js'
import { serviceRoutes } from './service-routes.js'

const specDir = resolve(dirname(fileURLToPath(import.meta.url)), 'spec-facts')
const cairnName = (text: string) => text.replace(/Svc/g, 'Cairn').replace(/svc/g, 'cairn')

interface SpecOperation { tag: string; method: string; path: string; auth: string; request: string; response: string; scope?: string; purpose?: string }
const specOperations = (JSON.parse(readFileSync(resolve(specDir, 'operations.json'), 'utf8')) as SpecOperation[]).map((op) => ({
  ...op, path: cairnName(op.path), request: cairnName(op.request ?? ''), response: cairnName(op.response), scope: op.scope && cairnName(op.scope),
}))
const specRequired = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(resolve(specDir, 'schemas-required.json'), 'utf8')) as Record<string, string[]>).map(([k, v]) => [cairnName(k), v]),
)

const document = buildOpenApiDocument({ baseUrl: 'https://cairn.example' }) as {
  openapi: string; info: { version: string }; servers: { url: string }[]
  paths: Record<string, Record<string, { operationId: string; tags: string[]; requestBody?: { required?: boolean; content: Record<string, unknown> }; parameters?: { name: string; in: string }[]; security?: unknown[] }>>
  components: { schemas: Record<string, { required?: string[] }> }
}

describe('the contract table', () => {
  it('has the spec\'s 108 operations, one row each, in its order', () => {
    expect(operations).toHaveLength(108)
    expect(operations.map((op) => `${op.method} ${op.path}`)).toEqual(specOperations.map((op) => `${op.method} ${op.path}`))
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(108)
  })

  it.each(specOperations.map((spec, i) => [`${spec.method} ${spec.path}`, spec, i] as const))('%s matches the spec', (_name, spec, i) => {
    const op = operations[i]!
    expect(op.tag).toBe(spec.tag)
    expect(op.auth).toBe(spec.auth)
    // Signal conformance routes state their specific response in the spec's purpose column.
    const named = (text?: string) => /\b([A-Z][A-Za-z0-9]+)\b/.exec(text ?? '')?.[1]
    expect([named(spec.response), named(spec.purpose)]).toContain(op.response.schema)
    if (op.request.kind !== 'none') expect(spec.request).toMatch(new RegExp(`\\b(${op.request.schema}|GET\\+body|body not declared|JSON with string field)`))
    if (spec.request.startsWith('multipart')) expect(op.request.kind).toBe('multipart')
    if (/^(form|application\/x-www-form-urlencoded)\b/.test(spec.request)) expect(op.request.kind).toBe('form')
    if (spec.request.startsWith('optional')) expect(op.request.kind !== 'none' && op.request.required).toBe(false)
    // A scope the spec lists for a route is required for its method (read for GET, write otherwise).
    if (spec.scope) expect(spec.scope.split(', ')).toEqual(expect.arrayContaining([...op.scopes]))
  })

  it('uses only declared scopes', () => {
    for (const op of operations) for (const scope of op.scopes) expect(Object.keys(SCOPES)).toContain(scope)
  })
})

describe('the component schemas', () => {
  it('are exactly 184: the spec\'s 178 and six it implies', () => {
    expect(Object.keys(components)).toHaveLength(184)
    const implied = Object.keys(components).filter((name) => !(name in specRequired)).sort()
    expect(implied).toEqual(['ReleaseComparison', 'ReleaseRecord', 'WebhookEndpoint', 'WebhookEndpointCreateRequest', 'WebhookEndpointUpdateRequest', 'WebhookTestEventRequest'])
  })

  it.each(Object.keys(specRequired))('%s has exactly the spec\'s required list', (name) => {
    const schema = document.components.schemas[name]
    expect(schema).toBeDefined()
    expect([...(schema!.required ?? [])].sort()).toEqual([...specRequired[name]!].sort())
  })
})

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by an independent validator', async () => {
    const api = await SwaggerParser.validate(structuredClone(document) as never)
    expect((api as { openapi: string }).openapi).toBe('3.1.0')
  })

  it('carries the info version, one server and every operation', () => {
    expect(document.info.version).toBe(CONTRACT_VERSION)
    expect(document.servers).toEqual([{ url: 'https://cairn.example' }])
    const all = Object.values(document.paths).flatMap((item) => Object.values(item))
    const specTags = new Set<string>(TAGS)
    // The spec's 108 are exactly the operations under the spec's tags; the routes beside them carry their own.
    expect(all.filter((op) => op.tags.every((tag) => specTags.has(tag))).map((op) => op.operationId)).toHaveLength(108)
    expect(all.filter((op) => op.tags.some((tag) => !specTags.has(tag))).map((op) => op.operationId).sort()).toEqual(serviceRoutes.map((route) => route.operationId).sort())
    expect(new Set(all.map((op) => op.operationId)).size).toBe(all.length)
    expect(Object.keys(document.components.schemas)).toHaveLength(184)
  })

  it('publishes the body each GenericCairnRequest operation reads, and never requires a GET body', () => {
    const generic = operations.filter((op) => op.request.kind !== 'none' && op.request.schema === 'GenericCairnRequest')
    expect(generic.map((op) => op.operationId).sort()).toEqual(Object.keys(acceptedBodies).sort())
    const verify = document.paths['/api/verify']!.post!.requestBody as unknown as { content: Record<string, { schema: { properties?: object; 'x-cairn-spec-schema'?: string } }> }
    expect(verify.content['application/json']!.schema).toMatchObject({ 'x-cairn-spec-schema': 'GenericCairnRequest', properties: { code: { type: 'string', minLength: 1 } } })
    const getsWithBodies = Object.values(document.paths).flatMap((item) => (item.get?.requestBody ? [item.get.requestBody] : []))
    expect(getsWithBodies.length).toBeGreaterThan(0)
    expect(getsWithBodies.every((body) => body.required === false)).toBe(true)
  })

  it('declares path parameters, bodies by media type and security by auth class', () => {
    const approve = document.paths['/api/connect/twin/market/intents/{intentId}/approve']!.post!
    expect(approve.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'intentId', in: 'path' })]))
    expect(Object.keys(document.paths['/api/document-seal']!.post!.requestBody!.content)).toEqual(['multipart/form-data'])
    expect(Object.keys(document.paths['/api/oidc/token']!.post!.requestBody!.content)).toEqual(['application/x-www-form-urlencoded'])
    expect(document.paths['/api/connect/twin/market/mandate']!.get!.requestBody).toBeDefined()
    expect(document.paths['/api/connect/record']!.post!.security).toEqual([{ bearerAuth: ['cairn:record'] }])
    expect(document.paths['/api/developers/webhooks']!.get!.security).toEqual([{ cairnSession: [] }, { bearerAuth: ['cairn:production'] }])
    // Open operations say so explicitly: an empty list of requirements (OpenAPI 3.1 §4.8.10).
    expect(document.paths['/api/oidc/jwks']!.get!.security).toEqual([])
  })
})
