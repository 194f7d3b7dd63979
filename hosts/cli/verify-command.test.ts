/**
 * `cairn verify`: the golden vectors with pinned trust (no network), JSON output, exit codes, trust
 * file forms, and trust fetched from the issuer when none is given. One run goes through the real
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
import { verifyCommand } from './verify-command.js'

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

  describe('without --trust', () => {
    const cairns: { close(): Promise<void> }[] = []
    afterAll(async () => {
      for (const closable of cairns) await closable.close()
    })

    it('fetches the keys from the issuer the file names, and says so', async () => {
      let handler: ReturnType<typeof createCairn>['nodeHandler'] | undefined
      const server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
      const cairn = createCairn(pinnedOptions({ baseUrl: server.url }))
      handler = cairn.nodeHandler
      cairns.push(server, cairn)
      const body = new FormData()
      body.append('file', new Blob([pngFile([new TextEncoder().encode('cli')]) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'cli.png')
      const sealed = new Uint8Array(await (await fetch(`${server.url}/api/document-seal`, { method: 'POST', body, headers: { accept: 'application/octet-stream' } })).arrayBuffer())
      writeFileSync(join(dir, 'cli.png'), sealed)
      const result = await run([join(dir, 'cli.png')])
      expect(result.code).toBe(0)
      expect(result.err).toContain(`using keys fetched from ${server.url}`)

      // The real binary, in a child process, with the trust pinned from the service.
      writeFileSync(join(dir, 'keys.json'), await (await fetch(`${server.url}/proof/keys`)).text())
      const bin = join(import.meta.dirname, 'bin.ts')
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', bin, 'verify', join(dir, 'cli.png'), '--trust', join(dir, 'keys.json'), '--json'])
      expect(JSON.parse(stdout)).toMatchObject({ ok: true, kind: 'integrity-seal' })
    }, 60_000)
  })
})
