/**
 * `cairn verify`: the golden vectors with pinned trust (no network), JSON output, exit codes, trust
 * file forms, and the issuer-asserted mode that never says VERIFIED (issue 22 §7). One run goes through the real
 * `bin.ts` (under tsx) in a child process.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { pngFile } from '../../conformance/proof/payloads.js'
import { createCairn } from '../library/create-cairn.js'
import { pinnedOptions } from '../http/test-support.js'
import { startHttpServer } from '../http/start-http-server.js'
import { EXIT_ISSUER_ASSERTED, verifyCommand } from './verify-command.js'

const golden = join(import.meta.dirname, '..', '..', 'core', 'proof', 'golden')
const trustFile = join(golden, 'trust.json')

async function run(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await verifyCommand(args, { log: (text) => out.push(text), error: (text) => err.push(text) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('cairn verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-verify-'))

  it('exits 0 for every sealed golden vector and 1 for the tampered and unsealed ones, offline (cairn.proof.v1 and v2)', async () => {
    for (const set of [golden, join(golden, 'v2')]) {
      const expected = JSON.parse(readFileSync(join(set, 'expected.json'), 'utf8')) as { file: string; expected: { ok: boolean } }[]
      for (const vector of expected) {
        const result = await run([join(set, vector.file), '--trust', join(set, 'trust.json')])
        expect(result.code, vector.file).toBe(vector.expected.ok ? 0 : 1)
        expect(result.out).toMatch(vector.expected.ok ? /^VERIFIED/ : /^NOT VERIFIED/)
      }
    }
    const json = await run([join(golden, 'proof-object.json'), '--trust', trustFile, '--json'])
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, kind: 'proof-object', details: { owner: { username: 'golden' } } })
  })

  it('reads a JWKS and a text file of log keys as separate trust files; missing log trust fails log inclusion', async () => {
    const trust = JSON.parse(readFileSync(trustFile, 'utf8')) as { proofKeys: unknown[]; logKeys: string[] }
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: trust.proofKeys }))
    writeFileSync(join(dir, 'log.key'), `# pinned log key\n${trust.logKeys[0]}\n`)
    const sealed = join(golden, 'sealed.pdf')
    expect((await run([sealed, '--trust', join(dir, 'jwks.json'), '--trust', join(dir, 'log.key')])).code).toBe(0)
    const withoutLog = await run([sealed, '--trust', join(dir, 'jwks.json')])
    expect(withoutLog.code).toBe(1)
    expect(withoutLog.out).toContain('error: Log inclusion')
  })

  it('exits 2 on usage errors', async () => {
    expect((await run([])).code).toBe(2)
    expect((await run(['a', 'b'])).code).toBe(2)
    expect((await run(['--nope', 'x'])).code).toBe(2)
    expect((await run([join(dir, 'missing.png'), '--trust', trustFile])).code).toBe(2)
    writeFileSync(join(dir, 'bad-trust.txt'), 'not a key\n')
    expect((await run([join(golden, 'sealed.png'), '--trust', join(dir, 'bad-trust.txt')])).code).toBe(2)
  })

  describe('without pinned trust', () => {
    const closables: { close(): Promise<void> }[] = []
    afterAll(async () => {
      for (const closable of closables) await closable.close()
    })
    /** A Cairn listening on 127.0.0.1 whose base URL is its own address: the issuer its seals name. */
    async function listeningCairn() {
      let handler: ReturnType<typeof createCairn>['nodeHandler'] | undefined
      const server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
      const cairn = createCairn(pinnedOptions({ baseUrl: server.url }))
      handler = cairn.nodeHandler
      closables.push(server, cairn)
      return server.url
    }
    async function sealAt(url: string, name: string): Promise<string> {
      const body = new FormData()
      body.append('file', new Blob([pngFile([new TextEncoder().encode(name)]) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), `${name}.png`)
      const sealed = new Uint8Array(await (await fetch(`${url}/api/document-seal`, { method: 'POST', body, headers: { accept: 'application/octet-stream' } })).arrayBuffer())
      writeFileSync(join(dir, `${name}.png`), sealed)
      return join(dir, `${name}.png`)
    }

    it('a forger\'s file naming the forger\'s own server is never VERIFIED: refused without a mode, issuer-asserted only with --issuer-asserted, not verified against pinned trust', async () => {
      const service = await listeningCairn()
      const forger = await listeningCairn()
      writeFileSync(join(dir, 'service-keys.json'), await (await fetch(`${service}/proof/keys`)).text())
      const forged = await sealAt(forger, 'forged')

      const bare = await run([forged])
      expect(bare.code).toBe(2)
      expect(bare.out).toBe('')
      expect(bare.err).toContain('give pinned trust (--trust FILE) or ask for --issuer-asserted')

      const asserted = await run([forged, '--issuer-asserted'])
      expect(asserted.code).toBe(EXIT_ISSUER_ASSERTED)
      expect(asserted.out).toMatch(/^NOT VERIFIED \(no pinned trust\) — CONSISTENT WITH ITS ISSUER: /)
      expect(asserted.out).not.toMatch(/^VERIFIED/m)
      expect(asserted.out).toContain(`trust: issuer-asserted — keys fetched from ${forger}`)
      const json = await run([forged, '--issuer-asserted', '--json'])
      expect(json.code).toBe(EXIT_ISSUER_ASSERTED)
      expect(JSON.parse(json.out)).toMatchObject({ ok: false, trust: 'issuer-asserted', issuer: forger, consistentWithIssuer: true })

      const pinned = await run([forged, '--trust', join(dir, 'service-keys.json')])
      expect(pinned.code).toBe(1)
      expect(pinned.out).toMatch(/^NOT VERIFIED: /)
      expect((await run([forged, '--trust', join(dir, 'service-keys.json'), '--issuer-asserted'])).code).toBe(2)
    })

    it('a genuine file is VERIFIED with the service\'s keys pinned, through the real binary', async () => {
      const service = await listeningCairn()
      const genuine = await sealAt(service, 'genuine')
      writeFileSync(join(dir, 'keys.json'), await (await fetch(`${service}/proof/keys`)).text())
      expect((await run([genuine, '--issuer-asserted'])).code).toBe(EXIT_ISSUER_ASSERTED)
      const bin = join(import.meta.dirname, 'bin.ts')
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', bin, 'verify', genuine, '--trust', join(dir, 'keys.json'), '--json'])
      expect(JSON.parse(stdout)).toMatchObject({ ok: true, trust: 'pinned', kind: 'integrity-seal' })
    }, 60_000)
  })
})
