/**
 * The package as a user gets it: `npm pack` (which builds dist/), the tarball installed into an
 * empty project in the temporary directory with nothing beside it, and then what a user does —
 * run the embedding example of docs/embedding.md with plain `node`, type-check it with `tsc`, start
 * `npx cairn serve`, and run `cairn/conformance` over their own adapter with vitest.
 *
 * Dependencies come from the npm registry (reusing the npm cache). Install scripts are skipped so
 * the test does not compile better-sqlite3 from source (minutes); the addon this clone already
 * compiled is copied in instead — the same file `npm install` would build on this machine.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SLOW = 240_000

interface Finished { code: number | null; stdout: string; stderr: string }

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
  })
}

async function succeed(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await run(command, args, cwd, env)
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.code}\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/** Resolves with the first stdout match of `pattern`; rejects if the child exits first. */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolvePromise, reject) => {
    let seen = ''
    let errors = ''
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      const match = pattern.exec(seen)
      if (match) resolvePromise(match)
    })
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}:\n${seen}\n${errors}`)))
  })
}

/** SIGTERM to the child's whole process group (npx and the `cairn` it started), as a terminal's Ctrl-C would. */
function stopped(child: ChildProcess): Promise<number | null> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise(child.exitCode)
    // 'close', not 'exit': npx may exit before the `cairn` it started has finished stopping; the
    // output pipe closes only when every process holding it has.
    child.on('close', (code) => resolvePromise(code))
    process.kill(-child.pid!, 'SIGTERM')
  })
}

function collectOutput(child: ChildProcess): () => string {
  let seen = ''
  child.stdout?.on('data', (chunk: Buffer) => (seen += chunk.toString()))
  return () => seen
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolvePromise(address.port) : reject(new Error('no port'))))
    })
  })
}

/** The first ```ts block after the embedding heading of docs/embedding.md. */
async function embeddingExample(): Promise<string> {
  const page = await readFile(join(repoRoot, 'docs', 'embedding.md'), 'utf8')
  const section = page.slice(page.indexOf('## Embedding Cairn in your own server'))
  const match = /```ts\n([\s\S]*?)```/.exec(section)
  if (!match?.[1]) throw new Error('docs/embedding.md has no embedding example')
  return match[1]
}

/** A user's own adapter: an EventBus kept in a Map, written against the published port types. */
const TINY_BUS = `import type { EventBus } from 'cairn/ports'

type Json = Parameters<EventBus['publish']>[1]

export class TinyBus implements EventBus {
  private readonly topics = new Map<string, Set<(message: Json) => void>>()
  async publish(topic: string, message: Json): Promise<void> {
    for (const listener of [...(this.topics.get(topic) ?? [])]) listener(structuredClone(message))
  }
  async subscribe(topic: string, onMessage: (message: Json) => void): Promise<() => Promise<void>> {
    const listener = (message: Json) => onMessage(message)
    const listeners = this.topics.get(topic) ?? new Set()
    this.topics.set(topic, listeners.add(listener))
    return async () => void listeners.delete(listener)
  }
  async close(): Promise<void> {
    this.topics.clear()
  }
}
`

const TINY_BUS_TEST = `import { describeEventBusConformance } from 'cairn/conformance'
import { TinyBus } from './tiny-bus.js'

describeEventBusConformance({ name: 'bus=tiny', create: async () => new TinyBus() })
`

describe('the packed package, installed into an empty project', () => {
  let work: string
  let project: string
  let tarballFiles: string[]

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'cairn-pack-'))
    // `npm pack` runs `prepare`, so the tarball holds a build of this very tree.
    const packed = JSON.parse(await succeed('npm', ['pack', '--json', '--pack-destination', work], repoRoot)) as [{ filename: string; files: { path: string }[] }]
    tarballFiles = packed[0].files.map((file) => file.path)
    project = join(work, 'consumer')
    await mkdir(project)
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
    await succeed(
      'npm',
      ['install', join(work, packed[0].filename), 'vitest@4', 'fast-check@4', 'typescript@5.9', '@types/node@20', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      project,
    )
    const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'
    await mkdir(dirname(join(project, addon)), { recursive: true })
    await copyFile(join(repoRoot, addon), join(project, addon))
    // What the user writes: the embedding example of docs/embedding.md (as JavaScript and as TypeScript) and their adapter.
    const example = await embeddingExample()
    await writeFile(join(project, 'example.mjs'), example)
    await writeFile(join(project, 'example.ts'), example)
    await writeFile(join(project, 'tiny-bus.ts'), TINY_BUS)
    await writeFile(join(project, 'tiny-bus.test.ts'), TINY_BUS_TEST)
  }, SLOW)

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('holds the build and what a user reads, and no sources, tests, fixtures or fakes', async () => {
    const packageJson = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { exports: Record<string, string | { types: string; default: string }>; bin: Record<string, string> }
    const shipped = new Set(tarballFiles)
    for (const target of Object.values(packageJson.exports)) {
      for (const file of typeof target === 'string' ? [target] : [target.types, target.default]) expect(shipped).toContain(file.replace(/^\.\//, ''))
    }
    expect(shipped).toContain(packageJson.bin.cairn!.replace(/^\.\//, ''))
    // The /verify page's browser bundle is built in, so a deployment never needs esbuild.
    expect(shipped).toContain('dist/hosts/http/verify-page.bundle.js')
    const unwanted = tarballFiles.filter((file) => /\.test\.|test-support|test-fakes|fake-driver|test-fixtures|local-s3-server|describe-env|(?<!\.d)\.ts$/.test(file))
    expect(unwanted).toEqual([])
    expect(tarballFiles.filter((file) => !/^(dist\/|docs\/|README\.md$|package\.json$|adapters\/[^/]+\/README\.md$|conformance\/README\.md$)/.test(file))).toEqual([])
  })

  it('runs the embedding example (docs/embedding.md) with plain node', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, ['example.mjs'], { cwd: project, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    try {
      await waitForOutput(child, /openapi: 200/)
      const keys = await fetch(`http://127.0.0.1:${port}/cairn/api/oidc/jwks`)
      expect(keys.status).toBe(200)
      expect(await keys.json()).toHaveProperty('keys')
      expect(await (await fetch(`http://127.0.0.1:${port}/elsewhere`)).text()).toBe('my own app')
    } finally {
      await stopped(child)
    }
  }, SLOW)

  it.concurrent('type-checks the embedding example (docs/embedding.md) and the adapter with tsc, strict, library checks on', async () => {
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], lib: ['ES2023', 'DOM'] },
        files: ['example.ts', 'tiny-bus.ts'],
      }),
    )
    const result = await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.'], project)
    expect(result.stdout + result.stderr).toBe('')
    expect(result.code).toBe(0)
  }, SLOW)

  it.concurrent('serves with `npx cairn serve --port 0`, on memory and on a data directory, and stops on SIGTERM', async () => {
    for (const args of [[], ['--data-dir', join(work, 'data')]]) {
      const child = spawn('npx', ['--no-install', 'cairn', 'serve', '--port', '0', ...args], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
      const output = collectOutput(child)
      try {
        const [, url] = await waitForOutput(child, /listening on (http:\/\/\S+)/i)
        const openapi = await fetch(`${url}/api/openapi`)
        expect(openapi.status).toBe(200)
        expect(((await openapi.json()) as { openapi: string }).openapi).toBe('3.1.0')
        expect((await fetch(`${url}/releases`)).status).toBe(200)
        expect((await fetch(`${url}/healthz`)).status).toBe(200)
        // Files the build copies beside the JavaScript (the sign-in page's script) are served too.
        expect((await fetch(`${url}/assets/cairn-login.js`)).status).toBe(200)
        // The /verify page's script is bundled from the build's compiled page source.
        expect((await fetch(`${url}/proof/verifier.js`)).status).toBe(200)
        expect((await fetch(`${url}/readyz`)).status).toBe(200)
      } finally {
        await stopped(child)
      }
      expect(output()).toContain('Cairn stopped')
    }
    expect(existsSync(join(work, 'data'))).toBe(true)
  }, SLOW)

  it.concurrent('runs cairn/conformance over a user\'s own adapter with vitest, as an adapter author would', async () => {
    const result = await run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot'], project, { CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/Tests\s+\S*\s*\d+ passed/)
  }, SLOW)
})
