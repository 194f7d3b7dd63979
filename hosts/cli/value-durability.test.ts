/**
 * Value on the durable single-machine default: `cairn serve --data-dir`, SIGKILLed in the middle of
 * a burst of concurrent transfers, then opened again. Value is still conserved (every unit sums to
 * zero), no wallet is negative, every acknowledged transfer is there, and every transfer that is
 * there is whole (its balances, its public feed event and its action ledger event together).
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import { personWithToken, startServeProcess } from './serve-process-test-support.js'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore } from '../../adapters/memory/index.js'
import { SqliteStore } from '../../adapters/sqlite/index.js'
import { CryptoEntropy, SystemClock } from '../../adapters/system/index.js'
import { ACTION_LEDGER_STREAM } from '../../core/ledger/action-ledger.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import { issueValue, trialBalance, WALLET_LEDGER_STREAM } from '../../core/value/index.js'
import { VALUE_ENTRIES, type LedgerEntry } from '../../core/value/ledger-entry.js'

const BASE_URL = 'http://cairn.value-durability.test'
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-value-data-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function startServer(): Promise<{ child: ChildProcess; url: string; exit: Promise<unknown> }> {
  const started = await startServeProcess(dataDir, BASE_URL)
  return started
}

/** The data dir's store opened in-process, while no server runs. */
async function withStore<T>(use: (deps: CoreDeps) => Promise<T>): Promise<T> {
  const store = new SqliteStore({ file: join(dataDir, 'cairn.sqlite') })
  const deps: CoreDeps = {
    clock: new SystemClock(), entropy: new CryptoEntropy(), store, blobs: new MemoryBlobStore(), events: new MemoryEventBus(), keys: new MemoryKeyStore(),
    config: { baseUrl: BASE_URL, deployment: {} },
  }
  await store.declare(collections)
  try {
    return await use(deps)
  } finally {
    await store.close()
  }
}

describe('cairn serve --data-dir with value', () => {
  it('keeps value conserved and every acknowledged transfer across a SIGKILL mid-burst', async () => {
    const setup = await startServer()
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => personWithToken(setup.url, BASE_URL, `payer${i}`)))
    setup.child.kill('SIGTERM')
    await setup.exit
    await withStore(async (deps) => {
      for (const person of people) expect(E.isRight(await issueValue(deps, { userId: person.userId, unit: 'phi', amount: '100000', idempotencyKey: `seed-${person.userId}` }))).toBe(true)
    })

    const server = await startServer()
    const acknowledged: string[] = []
    let sent = 0
    let killed = false
    const worker = async (w: number) => {
      while (!killed && sent < 2000) {
        const n = sent++
        const from = people[(w + n) % people.length]!
        const to = people[(w + n + 1) % people.length]!
        try {
          const response = await fetch(`${server.url}/api/connect/transfers`, {
            method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
            body: JSON.stringify({ recipientUserId: to.userId, unit: { currency: 'phi', amount: String(1 + (n % 97)) }, idempotencyKey: `burst-${n}` }),
          })
          const body = (await response.json()) as { transferId?: string }
          if (response.status === 200 && body.transferId) acknowledged.push(body.transferId)
        } catch {
          return // the server died under us
        }
        if (acknowledged.length >= 60 && !killed) {
          killed = true
          server.child.kill('SIGKILL')
        }
      }
    }
    await Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)))
    if (!killed) server.child.kill('SIGKILL')
    await server.exit
    expect(acknowledged.length).toBeGreaterThanOrEqual(60)

    await withStore(async (deps) => {
      const trial = await trialBalance(deps)
      expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
      expect(trial.negative).toEqual([])
      const entries = (await deps.store.query(VALUE_ENTRIES, { index: 'byCreatedAt', limit: 1000 })).items.map((d) => d.value as unknown as LedgerEntry)
      const transfers = entries.filter((e) => e.kind === 'transfer')
      for (const id of acknowledged) expect(transfers.some((e) => e.entryId === id)).toBe(true)
      // Balances are exactly what the surviving entries say.
      const expected = new Map<string, bigint>()
      for (const e of entries) {
        expected.set(e.debit, (expected.get(e.debit) ?? 0n) - BigInt(e.amount))
        expected.set(e.credit, (expected.get(e.credit) ?? 0n) + BigInt(e.amount))
      }
      expect(new Map(trial.accounts.map((a) => [a.account, BigInt(a.balance)]))).toEqual(expected)
      // Every transfer and every issuance is a public event.
      expect((await deps.store.readStream(WALLET_LEDGER_STREAM, { limit: 1000 })).items.length).toBe(transfers.length + entries.filter((e) => e.kind === 'issuance').length)
      const walletActions = (await deps.store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items.filter((e) => (e.value as { kind: string }).kind === 'wallet')
      expect(walletActions.length).toBe(entries.length)
    })
  }, 90_000)
})
