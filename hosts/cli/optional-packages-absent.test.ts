/**
 * mongodb, pg, the AWS SDK, openai and stripe are optional peer dependencies. Each process here runs
 * with them hidden by a module-resolution hook (ESM `resolve` and CommonJS `require` alike) that
 * also writes down every attempt to import one: an in-memory embed and `cairn serve` on its default
 * SQLite store run without them and never ask for them; a deployment that names MongoDB or
 * PostgreSQL without its driver gets one `cairn:` line naming the package to install.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { signInOverHttp, startServeProcess } from './serve-process-test-support.js'

const OPTIONAL = ['mongodb', 'pg', '@aws-sdk/client-s3', 'openai', 'stripe']
const bin = fileURLToPath(new URL('./bin.ts', import.meta.url))
const library = pathToFileURL(fileURLToPath(new URL('../library/index.ts', import.meta.url))).href

const dir = mkdtempSync(join(tmpdir(), 'cairn-optional-packages-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** NODE_OPTIONS that hide the optional packages from a child process, and the attempts it made to load one. */
function hidingOptionalPackages(name: string): { env: Record<string, string>; attempts(): string[] } {
  const log = join(dir, `${name}.attempts`)
  const check = `
    const hidden = new Set(${JSON.stringify(OPTIONAL)})
    const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')
    const refuse = (specifier, code) => {
      appendFileSync(${JSON.stringify(log)}, packageOf(specifier) + '\\n')
      throw Object.assign(new Error("Cannot find package '" + specifier + "' (hidden by the test)"), { code })
    }`
  const hooks = join(dir, `${name}-hooks.mjs`)
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs'
    ${check}
    export async function resolve(specifier, context, next) {
      if (hidden.has(packageOf(specifier))) refuse(specifier, 'ERR_MODULE_NOT_FOUND')
      return next(specifier, context)
    }`)
  const preload = join(dir, `${name}-preload.mjs`)
  writeFileSync(preload, `import Module, { register } from 'node:module'
    import { appendFileSync } from 'node:fs'
    ${check}
    register(${JSON.stringify(pathToFileURL(hooks).href)})
    const resolveFilename = Module._resolveFilename
    Module._resolveFilename = function (request, ...rest) {
      if (hidden.has(packageOf(request))) refuse(request, 'MODULE_NOT_FOUND')
      return resolveFilename.call(this, request, ...rest)
    }`)
  return {
    env: { NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${pathToFileURL(preload).href}`.trim() },
    attempts: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  }
}

const runNode = (args: readonly string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  )

describe('optional packages absent', () => {
  it('an in-memory embed runs without them and never asks for them', { timeout: 60_000 }, async () => {
    const hidden = hidingOptionalPackages('embed')
    const embed = join(dir, 'embed.mjs')
    writeFileSync(embed, `import { createCairn } from ${JSON.stringify(library)}
      const cairn = createCairn({ baseUrl: 'http://127.0.0.1:1/cairn' })
      const answer = await cairn.call('getJwks')
      const response = await cairn.fetch(new Request('http://127.0.0.1:1/cairn/api/openapi'))
      console.log('embed: ' + JSON.stringify({ tag: answer._tag, keys: answer.right?.body?.keys?.length, openapi: response.status }))
      await cairn.close()`)
    const run = await runNode([embed], hidden.env)
    expect(run.stderr).toBe('')
    expect(JSON.parse(/^embed: (.*)$/m.exec(run.stdout)?.[1] ?? 'null')).toEqual({ tag: 'Right', keys: expect.any(Number), openapi: 200 })
    expect(hidden.attempts()).toEqual([])
  })

  it('cairn serve on the default SQLite store signs in and seals without them, and never asks for them', { timeout: 60_000 }, async () => {
    const hidden = hidingOptionalPackages('serve')
    const baseUrl = 'http://cairn.optional-packages.test'
    const server = await startServeProcess(join(dir, 'data'), baseUrl, hidden.env)
    try {
      expect(server.firstLine).toContain('store=sqlite')
      const cookie = await signInOverHttp(server.url, baseUrl, 'ada')
      const form = new FormData()
      form.append('file', new Blob(['plain text'], { type: 'text/plain' }), 'notes.txt')
      const sealed = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie } })
      expect(sealed.status).toBe(200)
    } finally {
      server.child.kill('SIGTERM')
      await server.exit
    }
    expect(hidden.attempts()).toEqual([])
  })

  it.each([
    ['mongodb', 'mongodb://127.0.0.1:1/?replicaSet=rs0', 'MongoDB storage'],
    ['pg', 'postgres://cairn@127.0.0.1:1/cairn', 'PostgreSQL storage'],
  ])('a store that needs %s without it says which package to install', { timeout: 60_000 }, async (driver, store, purpose) => {
    const hidden = hidingOptionalPackages(`store-${driver}`)
    const run = await runNode([bin, 'serve', '--port', '0', '--store', store], { ...hidden.env, CAIRN_LOG_LEVEL: 'silent' })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(`cairn: storage is not ready: ${purpose} needs the npm package "${driver}", which is not installed: run npm install ${driver}`)
    expect(hidden.attempts()).toContain(driver)
  })
})
