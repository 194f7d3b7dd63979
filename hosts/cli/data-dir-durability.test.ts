/**
 * The durable single-machine default as a user runs it: `cairn serve --data-dir`, killed with
 * SIGKILL in the middle of a load of ID proofs, then started again on the same directory. Every
 * acknowledged identity must still be there, and identities and their ledger events must have been
 * committed together (never one without the other).
 */
import type { ChildProcess } from 'node:child_process'
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServeProcess } from './serve-process-test-support.js'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'

const BASE_URL = 'http://cairn.durability.test'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-data-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function startServer(): Promise<{ child: ChildProcess; url: string; exit: Promise<unknown> }> {
  const started = await startServeProcess(dataDir, BASE_URL)
  expect(started.firstLine).toContain('store=sqlite blobs=fs keys=file')
  return started
}

function continueBody(username: string, privateKey: KeyObject) {
  return signIdContinueRequest(
    { username, displayName: username, localUid: `device-${username}` },
    { privateKey, challenge: randomBytes(24), createdAt: new Date().toISOString(), audience: BASE_URL },
  )
}

async function postContinue(url: string, body: unknown): Promise<{ status: number; json: { created?: boolean } }> {
  const response = await fetch(`${url}/api/auth/cairn-id/continue`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as { created?: boolean } }
}

/** Every event of the public action ledger, following `nextCursor` until it stops moving. */
async function readWholeLedger(url: string): Promise<{ action: string }[]> {
  const events: { action: string }[] = []
  let cursor: string | null = null
  for (;;) {
    const page = (await (await fetch(`${url}/api/ledger/actions/public?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json()) as {
      events: { action: string }[]
      nextCursor: string | null
    }
    events.push(...page.events)
    if (page.events.length === 0 || page.nextCursor === null || page.nextCursor === cursor) return events
    cursor = page.nextCursor
  }
}

describe('cairn serve --data-dir', () => {
  it('keeps every acknowledged write across a SIGKILL and commits identity and ledger event together', async () => {
    const first = await startServer()
    const people = Array.from({ length: 400 }, (_, i) => ({ username: `person${String(i).padStart(3, '0')}`, key: generateKeyPairSync('ed25519').privateKey }))
    const acknowledged: string[] = []
    let next = 0
    let killed = false
    const worker = async () => {
      while (!killed && next < people.length) {
        const person = people[next++]!
        try {
          const { status } = await postContinue(first.url, continueBody(person.username, person.key))
          if (status === 200) acknowledged.push(person.username)
        } catch {
          return // the server died under us
        }
        if (acknowledged.length >= 40 && !killed) {
          killed = true
          first.child.kill('SIGKILL')
        }
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker))
    if (!killed) first.child.kill('SIGKILL')
    await first.exit
    expect(acknowledged.length).toBeGreaterThanOrEqual(40)

    const second = await startServer()
    try {
      const createdEvents = (await readWholeLedger(second.url)).filter((e) => e.action === 'identity_created').length
      const attempted = people.slice(0, next)
      let existing = 0
      for (const person of attempted) {
        const { status, json } = await postContinue(second.url, continueBody(person.username, person.key))
        expect(status).toBe(200)
        if (json.created === false) existing += 1
        if (acknowledged.includes(person.username)) expect(json.created).toBe(false)
      }
      expect(existing).toBe(createdEvents)
    } finally {
      second.child.kill('SIGTERM')
      await second.exit
    }
  }, 60_000)
})
