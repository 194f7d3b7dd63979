/**
 * The served OpenAPI document as third-party tools read it: Redocly's recommended ruleset finds no
 * errors, and openapi-typescript generates client types from it that compile and describe real
 * responses.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { startHttpServer, type RunningServer } from './start-http-server.js'
import { pinnedOptions } from './test-support.js'

describe('the served OpenAPI document, read by client tooling', () => {
  let cairn: Cairn
  let server: RunningServer
  let served: string
  beforeAll(async () => {
    cairn = createCairn(pinnedOptions({ baseUrl: 'http://127.0.0.1:8787' }))
    server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
    served = await (await fetch(`${server.url}/api/openapi`)).text()
  })
  afterAll(async () => {
    await server.close()
    await cairn.close()
  })

  it('passes Redocly\'s recommended ruleset with no errors', async () => {
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintFromString({ source: served, absoluteRef: `${server.url}/api/openapi`, config })
    const errors = problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)
    expect(errors).toEqual([])
    // What remains are warnings about components the spec defines but no operation references, and
    // the sign-in pages' form posts, which answer only a 303 redirect (or an HTML refusal).
    const formPosts = problems.filter((problem) => problem.ruleId === 'operation-2xx-response').map((problem) => problem.location[0]?.pointer)
    expect(formPosts).toEqual(['#/paths/~1consent/post/responses', '#/paths/~1logout/post/responses'])
    expect(new Set(problems.map((problem) => problem.ruleId))).toEqual(new Set(['no-unused-components', 'operation-2xx-response']))
  }, 60_000)

  it('generates TypeScript types with openapi-typescript that compile and fit a real response', async () => {
    const types = astToString(await openapiTS(new URL(`${server.url}/api/openapi`)))
    const dir = await mkdtemp(join(tmpdir(), 'cairn-openapi-ts-'))
    try {
      await writeFile(join(dir, 'cairn-api.ts'), types)
      const jwks = await (await fetch(`${server.url}/api/oidc/jwks`)).json()
      // A client author's first lines: the response type of an operation, filled from a real answer.
      await writeFile(
        join(dir, 'client.ts'),
        `import type { paths, operations } from './cairn-api.js'
type Jwks = paths['/api/oidc/jwks']['get']['responses']['200']['content']['application/json']
export const jwks: Jwks = ${JSON.stringify(jwks)}
export const kid: string | undefined = jwks.keys[0]?.kid
type AuthorizeRedirect = operations['authorize']['responses']['302']['headers']['Location']
export const location: AuthorizeRedirect = 'https://app.example/callback?code=x'
`,
      )
      const program = ts.createProgram([join(dir, 'client.ts')], {
        strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [],
      })
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      expect(diagnostics).toEqual([])
      expect(types).toContain('"/api/oidc/jwks"')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
