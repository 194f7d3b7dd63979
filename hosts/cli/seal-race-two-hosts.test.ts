/**
 * 500 seals at once across two `cairn serve` processes on one `--data-dir` (SQLite): every one is
 * answered with a sealed file that verifies offline against the published keys, and the log
 * afterwards passes an independent tiles audit (checkpoint signature, every leaf from the entry
 * bundles, every tile level, the root), holds each seal's leaf where its receipt says, and every
 * checkpoint handed out on the way — in a sealed file or polled while sealing — is proven
 * consistent with the final one: one tree, no fork, no lost leaf.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import { nodeVerifyOptions } from '../../core/proof/node-digest.js'
import { openArtifact } from '../../core/proof/open-artifact.js'
import { SEAL_LEAF_KIND } from '../../core/proof/format.js'
import { verifyArtifact } from '../../core/proof/verify.js'
import { verifyCheckpointConsistency } from '../../core/tlog/verify-receipt.js'
import { auditTiles } from '../http/tiles-audit-test-support.js'
import { startServeProcess, type ServeProcess } from './serve-process-test-support.js'
import { parseTrustFile } from './verify-command.js'

const BASE_URL = 'http://cairn.seal-race.test'
const SEALS = 500
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-seal-race-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const sealForm = (n: number) => {
  const body = new FormData()
  body.append('file', new Blob([`seal race ${n}\n`], { type: 'text/plain' }), `race-${n}.txt`)
  return body
}

describe('two cairn serve processes on one --data-dir', () => {
  it(`seal ${SEALS} files at once, every one answered, and the log verifies afterwards`, async () => {
    const hosts: ServeProcess[] = await Promise.all([startServeProcess(dataDir, BASE_URL), startServeProcess(dataDir, BASE_URL)])
    try {
      expect(hosts[0]!.firstLine).toContain('store=sqlite')
      const [a, b] = hosts.map((host) => host.url) as [string, string]
      const { verifierKey } = (await (await fetch(`${a}/log/key`)).json()) as { verifierKey: string }

      // Checkpoints polled from the other host while the seals race.
      const polled = new Set<string>()
      let sealing = true
      const poller = (async () => {
        while (sealing) {
          polled.add(await (await fetch(`${b}/log/checkpoint`)).text())
          await new Promise((resolve) => setTimeout(resolve, 25))
        }
      })()
      const answers = await Promise.all(
        Array.from({ length: SEALS }, async (_, n) => {
          const response = await fetch(`${n % 2 === 0 ? a : b}/api/document-seal`, { method: 'POST', body: sealForm(n), headers: { accept: 'application/octet-stream' } })
          return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
        }),
      )
      sealing = false
      await poller
      const failed = answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${new TextDecoder().decode(answer.bytes)}`)
      expect(failed).toEqual([])

      // Every sealed file verifies offline against the keys the service publishes.
      const trust = parseTrustFile(await (await fetch(`${a}/proof/keys`)).text(), 'proof keys')
      const receipts = await Promise.all(
        answers.map(async ({ bytes }) => {
          const verdict = await verifyArtifact(bytes, trust, nodeVerifyOptions)
          expect(verdict.errors).toEqual([])
          const opened = openArtifact(bytes)
          if (E.isLeft(opened)) throw new Error(opened.left.error)
          return opened.right.proof.log
        }),
      )
      expect(new Set(receipts.map((receipt) => receipt.leafIndex)).size).toBe(SEALS)

      // The whole log, audited independently from either host; each seal's leaf is where its receipt says.
      const audits = await Promise.all([a, b].map((url) => auditTiles((path) => fetch(`${url}${path}`), verifierKey)))
      const final = audits[0]!.size >= audits[1]!.size ? audits[0]! : audits[1]!
      expect(final.size).toBeGreaterThanOrEqual(SEALS)
      for (const receipt of receipts) expect(final.entries[receipt.leafIndex]).toMatchObject({ kind: SEAL_LEAF_KIND })
      expect(final.entries.filter((entry) => entry.kind === SEAL_LEAF_KIND)).toHaveLength(SEALS)

      // Every checkpoint anyone saw is a prefix of the final tree.
      const seen = new Set([...polled, ...receipts.map((receipt) => receipt.checkpoint), audits[0]!.checkpoint, audits[1]!.checkpoint])
      expect(seen.size).toBeGreaterThan(2)
      for (const checkpoint of seen) {
        const from = Number(checkpoint.split('\n')[1])
        const answer = (await (await fetch(`${a}/log/proof/consistency?from=${from}&to=${final.size}`)).json()) as { consistencyProof: string[] }
        expect(verifyCheckpointConsistency(checkpoint, final.checkpoint, answer.consistencyProof, verifierKey), `checkpoint of size ${from}`).toMatchObject({ ok: true })
      }
    } finally {
      for (const host of hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL')
      await Promise.all(hosts.map((host) => host.exit))
    }
  }, 60_000)
})
