import { createHmac } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { memoryDeps, type MemoryDeps } from '../../hosts/http/describe-env.js'
import { openValueAuthority } from '../../conformance/support/value-authority.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { ACTION_LEDGER_STREAM } from '../ledger/action-ledger.js'
import { isDeepStrictEqual } from 'node:util'
import { leafAppend, leafEntryBytes, LOG_LEAF_STREAM } from '../tlog/sequence.js'
import { awaitInclusion, readInclusionReceiptForLeafHash, verifyInclusionReceipt } from '../tlog/inclusion.js'
import { toHex } from '../tlog/base64.js'
import { leafHash } from '../tlog/merkle.js'
import { logSigner } from '../tlog/log-identity.js'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { sha256Hex } from '../digest/sha256.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, OperationRequest, Reply, UseCase } from '../usecases/use-case.js'
import { withFaults } from '../../conformance/fault-injection.js'
import { issueValue, trialBalance, valueUseCases, WALLET_LEDGER_STREAM } from './index.js'
import { valueAccounts } from './accounts.js'
import { walletLedger, type PublishedWalletEvent } from './wallet-feed.js'

let deps: MemoryDeps
let ada: string
let bob: string

beforeEach(async () => {
  deps = memoryDeps()
  await deps.store.declare(collections)
  ada = await createValueUser(deps.store, 'ada')
  bob = await createValueUser(deps.store, 'bob')
  expect(E.isRight(await issueValue(deps, { userId: ada, unit: 'phi', amount: '1000', idempotencyKey: 'seed-ada' }))).toBe(true)
})

const run = async (op: keyof typeof valueUseCases, userId: string, body: unknown = undefined, extra: Partial<OperationRequest> = {}, via: CoreDeps = deps) =>
  (valueUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: valueBearer(userId), ...extra }, via)
/**
 * Movements are batched within one process, per Store handle; handles of their own stand for other
 * processes sharing the store, so these commits really race (movement.ts decides losers again).
 */
const otherProcesses = (count: number): CoreDeps[] => Array.from({ length: count }, () => ({ ...deps, store: withFaults(deps.store, []) }))
const bodyOf = (reply: E.Either<unknown, Reply>) => {
  if (E.isLeft(reply)) throw new Error(`refused: ${JSON.stringify(reply.left)}`)
  return (reply.right as { body: any }).body
}
const transfer = (from: string, to: string, amount: string, idempotencyKey?: string, currency = 'phi', via: CoreDeps = deps) =>
  run('createTransfer', from, { recipientUserId: to, unit: { currency, amount }, ...(idempotencyKey ? { idempotencyKey } : {}) }, {}, via)
const balances = async () => ({ ada: bodyOf(await run('getConnectWallet', ada)).wallet.balancePhiMicro, bob: bodyOf(await run('getConnectWallet', bob)).wallet.balancePhiMicro })
async function snapshot() {
  const docs = async (collection: string, index: string) => (await deps.store.query(collection, { index, limit: 1000 })).items.map((d) => [d.key, d.version])
  return {
    accounts: await docs('value.accounts', 'byUnit'), entries: await docs('value.entries', 'byCreatedAt'),
    feed: (await deps.store.streamHead(WALLET_LEDGER_STREAM))?.head ?? null, actions: (await deps.store.streamHead(ACTION_LEDGER_STREAM))?.head ?? null,
  }
}
async function expectConserved() {
  const trial = await trialBalance(deps)
  expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
  expect(trial.negative).toEqual([])
  expect(trial.conserved).toBe(true)
}

describe('the trial balance', () => {
  it('is not conserved once a balance changes without its counterpart, nor while a wallet is negative', async () => {
    await expectConserved()
    const wallet = (await trialBalance(deps)).accounts.find((account) => account.balance === '1000')!
    const key = (await deps.store.query(valueAccounts.name, { index: 'byUnit', equals: ['phi', wallet.account] })).items[0]!
    await deps.store.commit([valueAccounts.put(key.key, { ...wallet, balance: '1001' }, { kind: 'version', version: key.version })])
    expect((await trialBalance(deps)).conserved).toBe(false)
    await deps.store.commit([valueAccounts.put(key.key, { ...wallet, balance: '-1' }, { kind: 'version', version: key.version + 1 })])
    const negative = await trialBalance(deps)
    expect(negative.sums.phi).toBe(-1001n)
    expect(negative.negative.map((account) => account.account)).toEqual([wallet.account])
    expect(negative.conserved).toBe(false)
  })
})

describe('wallets and transfers', () => {
  it('a transfer moves the exact amount once, publishes a pseudonymous event and an action ledger wallet event', async () => {
    const reply = bodyOf(await transfer(ada, bob, '250'))
    expect(reply).toMatchObject({ ok: true, transferId: expect.stringMatching(/^ent_/), event: { kind: 'transfer', amountPhiMicro: '250', amountUsdCents: '0' } })
    expect(await balances()).toEqual({ ada: '750', bob: '250' })
    const event = reply.event as PublishedWalletEvent
    expect(event.fromActor).not.toContain(ada)
    expect(event.fromActor).not.toBe(`wal_${sha256Hex(ada).slice(0, 24)}`)
    const actions = await deps.store.readStream(ACTION_LEDGER_STREAM)
    expect(actions.items.map((entry) => (entry.value as { kind: string; action: string }).action)).toEqual(['issuance', 'transfer'])
    await expectConserved()
  })

  it('refuses an overdraft, a self transfer, an unknown recipient and bad amounts, writing nothing', async () => {
    const before = await snapshot()
    for (const [reply, status] of [
      [await transfer(ada, bob, '1001'), 'Unprocessable'], [await transfer(ada, ada, '1'), 'InvalidInput'], [await transfer(ada, 'usr_nobody', '1'), 'NotFound'],
      [await transfer(ada, bob, '0'), 'InvalidInput'], [await transfer(ada, bob, '1.5'), 'InvalidInput'], [await transfer(bob, ada, '1', undefined, 'usd'), 'Unprocessable'],
    ] as const) expect(E.isLeft(reply) && reply.left._tag).toBe(status)
    expect(await snapshot()).toEqual(before)
  })

  it('an idempotency key replays the saved answer; the same key with another body is 422', async () => {
    const first = bodyOf(await transfer(ada, bob, '100', 'k-1'))
    const again = await transfer(ada, bob, '100', 'k-1')
    expect(bodyOf(again)).toEqual(first)
    expect(E.isRight(again) && (again.right as { headers?: Record<string, string> }).headers).toEqual({ 'idempotent-replayed': 'true' })
    const other = await transfer(ada, bob, '101', 'k-1')
    expect(E.isLeft(other) && other.left._tag).toBe('Unprocessable')
    expect(await balances()).toEqual({ ada: '900', bob: '100' })
    // Keys are scoped to their sender: bob's k-1 is another key.
    expect(bodyOf(await transfer(bob, ada, '100', 'k-1')).ok).toBe(true)
  })

  it('concurrent transfers from one wallet never overdraw it and each lands whole or not at all', async () => {
    const processes = otherProcesses(30)
    const replies = await Promise.all(processes.map((via, i) => transfer(ada, bob, '70', `burst-${i}`, 'phi', via)))
    const accepted = replies.filter(E.isRight).length
    expect(accepted).toBe(14) // floor(1000 / 70)
    for (const reply of replies.filter(E.isLeft)) expect(['Unprocessable', 'Conflict']).toContain(reply.left._tag)
    expect(await balances()).toEqual({ ada: String(1000 - 70 * 14), bob: String(70 * 14) })
    await expectConserved()
  })

  it('concurrent retries of one key move value once', async () => {
    const replies = await Promise.all(otherProcesses(10).map((via) => transfer(ada, bob, '10', 'same', 'phi', via)))
    const bodies = replies.map(bodyOf)
    expect(new Set(bodies.map((b) => b.transferId)).size).toBe(1)
    expect(await balances()).toEqual({ ada: '990', bob: '10' })
  })
})

describe('the public wallet ledger', () => {
  it('pages with cursor and nextCursor, keeps actors stable, and its rollup equals the sum of its events', async () => {
    // The seed issuance is the first event: 1000 µΦ from `cairn` to ada's pseudonym.
    const seed = bodyOf(await run('getWalletLedger', ada, undefined, { query: { limit: 1 } }))
    expect(seed.events).toMatchObject([{ kind: 'issuance', amountPhiMicro: '1000', amountUsdCents: '0', fromActor: 'cairn' }])
    await transfer(ada, bob, '10')
    await transfer(ada, bob, '20')
    await transfer(bob, ada, '5')
    const first = bodyOf(await run('getWalletLedger', ada, undefined, { query: { limit: 2, cursor: seed.nextCursor } }))
    expect(first.events).toHaveLength(2)
    const second = bodyOf(await run('getWalletLedger', ada, undefined, { query: { limit: 2, cursor: first.nextCursor } }))
    expect(second.events).toHaveLength(1)
    const third = bodyOf(await run('getWalletLedger', ada, undefined, { query: { cursor: second.nextCursor } }))
    expect(third).toMatchObject({ events: [], nextCursor: second.nextCursor })
    const events = [...first.events, ...second.events] as PublishedWalletEvent[]
    expect(events[0]!.fromActor).toBe(events[1]!.fromActor)
    expect(events[2]!.toActor).toBe(events[0]!.fromActor)
    const sum = events.reduce((total, event) => total + BigInt(event.amountPhiMicro), 0n)
    expect(events[2]!.toActor).toBe(seed.events[0].toActor)
    expect(first.rollup).toMatchObject({ totalTransferEvents: '3', totalIssuanceEvents: '1', totalPhiCreditMicro: String(sum + 1000n), totalPhiDebitMicro: String(sum), totalUsdCreditCents: '0' })
  })

  it('pseudonyms are an HMAC under a deployment secret kept in the Store, not a hash of the user id', async () => {
    const event = bodyOf(await transfer(ada, bob, '10')).event as PublishedWalletEvent
    const secret = await deps.store.get<{ keyB64u: string }>('value.secrets', 'wallet-ledger-pseudonym-key')
    const key = Buffer.from(secret!.value.keyB64u, 'base64url')
    expect(key).toHaveLength(32)
    expect(event.fromActor).toBe(`wal_${createHmac('sha256', key).update(`cairn.wallet-ledger.actor:${ada}`).digest('base64url').slice(0, 24)}`)
    // Another deployment (another secret) publishes other pseudonyms for the same user id.
    const other = memoryDeps({ seed: 'another-deployment' })
    await other.store.declare(collections)
    await createValueUser(other.store, 'ada'); await createValueUser(other.store, 'bob')
    await issueValue(other, { userId: ada, unit: 'phi', amount: '10', idempotencyKey: 's' })
    const otherEvent = bodyOf(await (valueUseCases.createTransfer as unknown as UseCase)({ params: {}, query: {}, body: { recipientUserId: bob, unit: { currency: 'phi', amount: '1' } }, principal: valueBearer(ada) }, other)).event
    expect(otherEvent.fromActor).not.toBe(event.fromActor)
  })

  it('each event carries a receipt that recomputes from the event and a verifyPath to the page holding it', async () => {
    await transfer(ada, bob, '10')
    await transfer(ada, bob, '20')
    const page = bodyOf(await run('getWalletLedger', ada))
    let priorHead: string | null = null
    for (const event of page.events as PublishedWalletEvent[]) {
      const { proofBundle, receipt, ...stored } = event
      expect(receipt.entryDigest).toBe(entryDigestOf(stored))
      expect(receipt.priorHead).toBe(priorHead)
      expect(receipt.head).toBe(chainHead(priorHead, receipt.entryDigest))
      priorHead = receipt.head
      // The event's log leaf, rebuilt from the event alone, was sequenced once; its proof is found by the leaf's hash.
      expect(receipt.log.leaf).toEqual({ kind: 'cairn.wallet_ledger_event', eventId: event.id, eventDigest: receipt.entryDigest })
      const sequenced = (await deps.store.readStream(LOG_LEAF_STREAM, { limit: 1000 })).items.filter((e) => isDeepStrictEqual(e.value, receipt.log.leaf))
      expect(sequenced).toHaveLength(1)
      expect(event).not.toHaveProperty('logLeafIndex')
      expect(receipt.log).not.toHaveProperty('leafIndex')
      const hash = toHex(leafHash(leafEntryBytes(receipt.log.leaf)))
      expect(receipt.log.inclusionPath).toBe(`/log/proof/leaf/${hash}`)
      await awaitInclusion(deps, sequenced[0]!.sequence - 1)
      const inclusion = await readInclusionReceiptForLeafHash(deps, hash)
      expect(inclusion?.leafIndex).toBe(sequenced[0]!.sequence - 1)
      expect(verifyInclusionReceipt(receipt.log.leaf, inclusion!, (await logSigner(deps.keys, deps.config.baseUrl)).verifierKey)).toMatchObject({ ok: true })
      const [, search] = proofBundle.verifyPath.split('?')
      const query = Object.fromEntries(new URLSearchParams(search))
      const at = bodyOf(await run('getWalletLedger', ada, undefined, { query: { ...query, limit: Number(query.limit) } }))
      expect(at.events.map((e: PublishedWalletEvent) => e.id)).toEqual([event.id])
    }
  })
})

describe('an event published when events named their log leaf index', () => {
  it('is served as stored: its digest still recomputes, and its proof is found by that index', async () => {
    // Stored as movements published events before the Store assigned their leaves' positions.
    const stored = {
      amountPhiMicro: '5', amountUsdCents: '0', createdAt: '2026-11-01T00:00:00.000Z', fromActor: 'a'.repeat(64), id: 'wle_old', kind: 'transfer' as const,
      logLeafIndex: 0, pulse: 1, toActor: 'b'.repeat(64),
    }
    const leaf = { eventDigest: entryDigestOf(stored), eventId: stored.id, kind: 'cairn.wallet_ledger_event' }
    const fresh = memoryDeps()
    await fresh.store.declare(collections)
    expect((await fresh.store.commit([walletLedger.appendNext(stored), leafAppend(leaf)])).ok).toBe(true)
    const [event] = bodyOf(await run('getWalletLedger', ada, undefined, {}, fresh)).events as PublishedWalletEvent[]
    const { proofBundle: _bundle, receipt, ...members } = event!
    expect(members).toEqual(stored)
    expect(receipt.entryDigest).toBe(entryDigestOf(members))
    expect(receipt.log).toEqual({ leafIndex: 0, leaf, inclusionPath: '/log/proof/inclusion?index=0' })
    expect(verifyInclusionReceipt(leaf, await awaitInclusion(fresh, 0), (await logSigner(fresh.keys, fresh.config.baseUrl)).verifierKey)).toMatchObject({ ok: true })
  })
})

describe('Reserve and Settlement', () => {
  let authorityDigest: string
  beforeEach(async () => { authorityDigest = await openValueAuthority(deps, valueBearer(ada)) })
  const intent = (schema: string, idempotencyKey: string, extra: Record<string, string> = {}) => ({ intent: { schema, idempotencyKey, ...extra }, authorityDigest })
  const reserve = (key: string, amount: string, extra: Record<string, string> = {}) => run('executeReserve', ada, intent('cairn.value.reserve.v1', key, { amountPhiMicro: amount, ...extra }))
  const settle = (key: string, amount: string) => run('executeSettlement', ada, intent('cairn.value.settlement.v1', key, { amountPhiMicro: amount, counterpartySubjectId: bob }))
  const lookup = (key: string, userId = ada) => run('getValueExecutionByIdempotency', userId, undefined, { params: { idempotencyKey: key } })

  it('reserve then settle moves Φ wallet → reserve → counterparty with receipts, recoverable by key', async () => {
    expect(bodyOf(await lookup('r-1'))).toMatchObject({ ok: false, status: 'unknown', writes: 0 })
    const reserved = bodyOf(await reserve('r-1', '400'))
    expect(reserved).toMatchObject({ ok: true, status: 'committed', idempotencyKey: 'r-1', receipt: { kind: 'reserve', amountPhiMicro: '400' } })
    expect(reserved.receiptDigest).toBe(sha256Hex(JSON.stringify(reserved.receipt, Object.keys(reserved.receipt).sort())))
    expect(bodyOf(await lookup('r-1'))).toEqual(reserved)
    const settled = bodyOf(await settle('s-1', '300'))
    expect(settled).toMatchObject({ status: 'committed', receipt: { kind: 'settlement', creditAccount: `wallet:${bob}` } })
    expect(await balances()).toEqual({ ada: '600', bob: '300' })
    await expectConserved()
  })

  it('a refused execution writes nothing to value, says why, and that zero-write outcome is recoverable by key', async () => {
    const before = await snapshot()
    const refused = bodyOf(await settle('s-2', '1'))
    expect(refused).toMatchObject({ ok: false, status: 'zero-write', reasonCode: 'insufficient_balance', writes: 0 })
    expect(bodyOf(await lookup('s-2'))).toEqual(refused)
    expect(bodyOf(await reserve('r-h', '1', { expectedPriorHead: 'b'.repeat(64) }))).toMatchObject({ status: 'zero-write', reasonCode: 'prior_head_mismatch' })
    expect(bodyOf(await run('executeReserve', ada, intent('cairn.value.settlement.v1', 'r-s', { amountPhiMicro: '1' })))).toMatchObject({ reasonCode: 'intent_schema_mismatch' })
    expect(await snapshot()).toEqual(before)
    expect(bodyOf(await lookup('s-2', bob))).toMatchObject({ status: 'unknown' }) // keys are the caller's own
  })
})
