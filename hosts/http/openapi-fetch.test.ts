/**
 * The served OpenAPI document as a generated client uses it: openapi-typescript turns it into
 * types, a file that calls EVERY operation (the 108 and the routes beside them) through
 * openapi-fetch compiles under `tsc --strict` with no cast, and a sample of those calls runs
 * against a live server.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'
import { pinnedOptions } from './test-support.js'
import { serviceRoutes } from '../../core/contract/service-routes.js'

type Schema = Record<string, unknown>
interface Operation { operationId: string; parameters?: { name: string; in: string; required?: boolean; schema: Schema }[]; requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> } }
interface Document { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }

/** The smallest value a schema's generated type accepts: required properties only, first alternatives. */
function sampleOf(schema: Schema, document: Document, depth = 0): unknown {
  if (depth > 12) return {}
  if (typeof schema.$ref === 'string') return sampleOf(document.components.schemas[schema.$ref.split('/').pop()!]!, document, depth + 1)
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(schema[key])) return sampleOf((schema[key] as Schema[])[0]!, document, depth + 1)
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...(schema.allOf as Schema[]).map((part) => sampleOf(part, document, depth + 1)))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string': return 'x'
    case 'integer': case 'number': return 1
    case 'boolean': return true
    case 'null': return null
    case 'array': return []
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>
      const required = (schema.required ?? []) as string[]
      return Object.fromEntries(required.map((name) => [name, sampleOf(properties[name] ?? {}, document, depth + 1)]))
    }
  }
}

/** One openapi-fetch call per operation, with every required parameter and body filled. */
function callsFile(document: Document): string {
  const lines = [
    `import createClient from 'openapi-fetch'`,
    `import type { paths } from './cairn-api.js'`,
    `export const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' })`,
    `const form = (body: unknown) => { const data = new FormData(); for (const [k, v] of Object.entries(body as object)) data.append(k, String(v)); return data }`,
  ]
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params: Record<string, Record<string, unknown>> = {}
      for (const p of op.parameters ?? []) if (p.required) (params[p.in] ??= {})[p.name] = sampleOf(p.schema, document)
      const init: string[] = []
      if (Object.keys(params).length > 0) init.push(`params: ${JSON.stringify(params)}`)
      const [mediaType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? []
      if (content && op.requestBody?.required) {
        init.push(`body: ${JSON.stringify(sampleOf(content.schema, document))}`)
        if (mediaType !== 'application/json') init.push('bodySerializer: form')
      }
      lines.push(`export const ${op.operationId} = () => client.${method.toUpperCase()}(${JSON.stringify(path)}${init.length > 0 ? `, { ${init.join(', ')} }` : ''})`)
    }
  }
  return `${lines.join('\n')}\n`
}

/** What a client author writes first: typed answers, typed errors, a GET+body route without its body, a quick-start route. */
const SAMPLE = `import createClient from 'openapi-fetch'
import type { paths } from './cairn-api.js'
export async function run(baseUrl: string) {
  const client = createClient<paths>({ baseUrl })
  const jwks = await client.GET('/api/oidc/jwks')
  const health = await client.GET('/healthz')
  const releases = await client.GET('/releases')
  const logKey = await client.GET('/log/key')
  const proofKeys = await client.GET('/proof/keys')
  const unknownClaim = await client.POST('/api/verify', { body: { code: '0123456789abcdef0123' } })
  const badClaim = await client.POST('/api/verify', { body: { sha256: 'not-hex' } })
  const compare = await client.GET('/releases/compare', { params: { query: { from: 'v108.0.0' } } })
  const sealed = await client.POST('/api/document-seal', {
    body: { file: 'hello' },
    bodySerializer: () => { const data = new FormData(); data.append('file', new Blob(['hello, cairn']), 'hello.txt'); return data },
  })
  const claim = sealed.data?.sealedSha256 === undefined ? undefined : await client.POST('/api/verify', { body: { sha256: sealed.data.sealedSha256 } })
  return {
    kid: jwks.data?.keys[0]?.kid,
    health: health.data?.status,
    latest: releases.data?.latest,
    origin: logKey.data?.origin,
    proofKeys: proofKeys.data?.keys.length,
    unknownClaim: [unknownClaim.response.status, unknownClaim.data?.ok],
    badClaim: [badClaim.response.status, badClaim.error?.ok],
    compare: compare.data?.ok,
    sealedKind: sealed.data?.kind,
    claimStatus: claim?.response.status,
  }
}
`

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
}

describe('the OpenAPI document through openapi-typescript and openapi-fetch', () => {
  let cairn: Cairn
  let server: RunningServer
  let document: Document
  let dir: string
  beforeAll(async () => {
    cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1:8787' }))
    // The client and the server share this process's event loop: with the server's idle timeout
    // well past fetch's own (4 s), a stall under load can never let the server close a pooled
    // connection just as the next request is written to it (ECONNRESET).
    server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0, limits: { keepAliveTimeoutMs: 60_000 } })
    document = (await (await fetch(`${server.url}/api/openapi`)).json()) as Document
    dir = await mkdtemp(join(tmpdir(), 'cairn-openapi-fetch-'))
    await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir')
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }')
    await writeFile(join(dir, 'cairn-api.ts'), astToString(await openapiTS(new URL(`${server.url}/api/openapi`))))
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await cairn.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('types a call of every operation, with its parameters and body, under tsc --strict', async () => {
    const calls = callsFile(document)
    await writeFile(join(dir, 'calls.ts'), calls)
    await writeFile(join(dir, 'sample.ts'), SAMPLE)
    const program = ts.createProgram([join(dir, 'calls.ts'), join(dir, 'sample.ts')], COMPILER_OPTIONS)
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName.split('/').pop()}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : '?'} ${ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 400)}`)
    expect(diagnostics).toEqual([])
    const operationCount = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0)
    expect(calls.match(/^export const \w+ = \(\) => client\./gmu)).toHaveLength(operationCount)
    expect(calls).toContain(`export const verifyClaim = () => client.POST("/api/verify")`)
    // The spec's GET+body routes are called with no body at all.
    expect(calls).toContain(`export const getTwinMarketMandate = () => client.GET("/api/connect/twin/market/mandate")`)
  }, 120_000)

  it('describes exactly the routes the host serves beside the contract', async () => {
    for (const route of serviceRoutes) {
      const path = route.path.replace(/\{[^}]+\}/gu, 'x')
      const answer = await fetch(`${server.url}${path}`, { method: 'DELETE' })
      expect([route.path, answer.status, answer.headers.get('allow')?.split(/,\s*/u)]).toEqual([route.path, 405, expect.arrayContaining([route.method])])
    }
  })

  it('runs a sample of the calls against a live server', async () => {
    const compiled = ts.transpileModule(SAMPLE, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
    await writeFile(join(dir, 'sample-run.mjs'), compiled)
    const { run } = (await import(pathToFileURL(join(dir, 'sample-run.mjs')).href)) as { run: (baseUrl: string) => Promise<Record<string, unknown>> }
    const result = await run(server.url)
    expect(result).toMatchObject({
      health: 'alive', latest: expect.stringMatching(/^v\d/), origin: expect.any(String), compare: true, sealedKind: 'integrity-seal', claimStatus: 200,
      unknownClaim: [200, expect.any(Boolean)], badClaim: [400, false],
    })
    expect(result.kid).toEqual(expect.any(String))
    expect(result.proofKeys).toBeGreaterThan(0)
  }, 60_000)
})
