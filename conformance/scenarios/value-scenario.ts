/**
 * The value scenario, on every storage combination: a fast-check property runs random batches of
 * every value operation — transfers (overdrafts, bad amounts, reused idempotency keys with the same
 * or another body among them), Reserve, Settlement, outcome lookups, checkouts completed several
 * times at once, notes minted and claimed several times at once, issuance — each batch concurrently, and after every batch checks that value is
 * conserved (every unit sums to zero over all accounts), that no wallet, reserve or note account
 * is negative, and at the end that the run's users hold exactly what entered for them and that the
 * public ledger's rollup equals the sum of its events. Commands alternate between two Store
 * connections, as two processes of one deployment would, so their commits really race.
 */
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore } from '../../adapters/memory/index.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { SeededEntropy } from '../../adapters/memory/seeded-entropy.js'
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps, OperationRequest, Reply, UseCase } from '../../core/usecases/use-case.js'
import {
  completeCheckout, issueValue, readWalletLedger, trialBalance, valueCheckouts, valueUseCases, type Unit, type WalletLedgerRollup,
} from '../../core/value/index.js'
import { loadRollup, walletSides } from '../../core/value/wallet-feed.js'
import { openValueAuthority } from '../support/value-authority.js'
import { createValueUser, valueBearer } from '../support/value-users.js'
import { openStoreFixture, secondHost, type StoreConformanceOptions } from '../targets.js'

export interface ValueScenarioOptions {
  readonly name: string
  readonly store: StoreConformanceOptions['create']
  /** @default 10 */
  readonly runs?: number
}

const USERS = 3
const unit = fc.constantFrom<Unit>('phi', 'usd')
const who = fc.integer({ min: 0, max: USERS - 1 })
const amount = fc.oneof(fc.bigInt({ min: 1n, max: 400n }).map(String), fc.constantFrom('0', '1.5', '-3', '99999999999999999999'))
const key = fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined })

type Command =
  | { op: 'transfer'; from: number; to: number; unit: Unit; amount: string; key: string | undefined }
  | { op: 'reserve'; user: number; amount: string; key: string }
  | { op: 'settle'; user: number; to: number; amount: string; key: string }
  | { op: 'lookup'; user: number; key: string }
  | { op: 'checkout'; user: number; cents: bigint; completions: number }
  | { op: 'issue'; user: number; unit: Unit; amount: bigint }
  | { op: 'note'; minter: number; claimer: number; unit: Unit; amount: string; claims: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('transfer' as const), from: who, to: who, unit, amount, key }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reserve' as const), user: who, amount, key: fc.constantFrom('r1', 'r2', 'r3', 'r4') }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('settle' as const), user: who, to: who, amount, key: fc.constantFrom('s1', 's2', 's3', 's4') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('lookup' as const), user: who, key: fc.constantFrom('r1', 's1', 'x') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('checkout' as const), user: who, cents: fc.bigInt({ min: 1n, max: 5000n }), completions: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('issue' as const), user: who, unit, amount: fc.bigInt({ min: 1n, max: 500n }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('note' as const), minter: who, claimer: who, unit, amount, claims: fc.integer({ min: 1, max: 3 }) }) },
)

export function describeValueScenario(options: ValueScenarioOptions): void {
  describe(`${options.name} value scenario`, () => {
    let deps: CoreDeps & { payments: TestPaymentProcessor }
    /** The same deployment through a second Store connection: a second process racing the first. */
    let second: CoreDeps & { payments: TestPaymentProcessor }
    let dispose: () => Promise<void>
    let runId = 0
    /** Each user's `authorityDigest`: the binding digest of their open authority session. */
    const authorities = new Map<string, string>()

    beforeAll(async () => {
      const fixture = await openStoreFixture(options.store)
      const clock = new FixedClock(Date.parse('2026-06-25T00:00:00.000Z'))
      deps = {
        clock, entropy: new SeededEntropy(`value-${options.name}`), store: fixture.store, blobs: new MemoryBlobStore(), events: new MemoryEventBus(),
        keys: new MemoryKeyStore(), config: { baseUrl: 'http://cairn.value.test', deployment: {} }, payments: new TestPaymentProcessor(clock, 'http://cairn.value.test'),
      }
      await deps.store.declare(collections)
      second = { ...deps, store: await secondHost(fixture, collections) }
      dispose = () => fixture.dispose()
    })
    afterAll(() => dispose())

    it('conserves value and never overdraws under random concurrent batches of every operation', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(command, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), async (batches) => {
          runId += 1
          const users = await Promise.all(Array.from({ length: USERS }, (_, i) => createValueUser(deps.store, `r${runId}u${i}`)))
          // Each user's application acts under an open authority session consented to value execution.
          for (const user of users) authorities.set(user, await openValueAuthority(deps, valueBearer(user)))
          const entered: Record<Unit, bigint> = { phi: 0n, usd: 0n }
          for (const batch of batches) {
            const outcomes = await Promise.all(batch.map((cmd, i) => runCommand(i % 2 === 0 ? deps : second, users, authorities, `r${runId}`, cmd)))
            for (const { unit: u, amount: a } of outcomes.flat()) entered[u] += a
            const trial = await trialBalance(deps)
            expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
            expect(trial.negative).toEqual([])
          }
          // What the run's users hold (wallets and reserves) is exactly what entered for them.
          const held: Record<Unit, bigint> = { phi: 0n, usd: 0n }
          const trial = await trialBalance(deps)
          for (const account of trial.accounts) if (users.some((u) => account.account.endsWith(`:${u}`))) held[account.unit] += BigInt(account.balance)
          expect(held).toEqual(entered)
        }),
        { numRuns: options.runs ?? 10 },
      )
      await expectRollupIsSumOfEvents(deps)
    })
  })
}

/** Runs one command; answers what value entered the run's users (issuance, checkout credits). */
async function runCommand(
  deps: CoreDeps & { payments: TestPaymentProcessor }, users: readonly string[], authorities: ReadonlyMap<string, string>, run: string, cmd: Command,
): Promise<{ unit: Unit; amount: bigint }[]> {
  const call = (op: keyof typeof valueUseCases, userId: string, body: unknown, extra: Partial<OperationRequest> = {}) =>
    (valueUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: valueBearer(userId), ...extra }, deps)
  const intent = (userId: string, schema: string, idempotencyKey: string, extra: Record<string, string>) => ({ intent: { schema, idempotencyKey, ...extra }, authorityDigest: authorities.get(userId)! })
  switch (cmd.op) {
    case 'transfer':
      await call('createTransfer', users[cmd.from]!, { recipientUserId: users[cmd.to]!, unit: { currency: cmd.unit, amount: cmd.amount }, ...(cmd.key ? { idempotencyKey: cmd.key } : {}) })
      return []
    case 'reserve':
      await call('executeReserve', users[cmd.user]!, intent(users[cmd.user]!, 'cairn.value.reserve.v1', cmd.key, { amountPhiMicro: cmd.amount }))
      return []
    case 'settle':
      await call('executeSettlement', users[cmd.user]!, intent(users[cmd.user]!, 'cairn.value.settlement.v1', cmd.key, { amountPhiMicro: cmd.amount, counterpartySubjectId: users[cmd.to]! }))
      return []
    case 'lookup': {
      const reply = await call('getValueExecutionByIdempotency', users[cmd.user]!, undefined, { params: { idempotencyKey: cmd.key } })
      expect(['committed', 'zero-write', 'unknown']).toContain(bodyOf(reply).status)
      return []
    }
    case 'checkout': {
      const dollars = `${cmd.cents / 100n}.${(cmd.cents % 100n).toString().padStart(2, '0')}`
      const created = bodyOf(await call('createConnectCheckout', users[cmd.user]!, { amountUsd: dollars, currency: 'usd' }))
      const record = (await valueCheckouts.get(deps.store, created.sessionId))!.value
      const completions = await Promise.all(Array.from({ length: cmd.completions }, () => completeCheckout(deps, deps.payments, deps.payments.completion(record))))
      const credited = completions.filter((c) => E.isRight(c) && c.right._tag === 'credited').length
      expect(credited).toBe(1)
      return [{ unit: 'usd', amount: cmd.cents }]
    }
    case 'note': {
      // Mint (refused when the wallet is short or the amount bad), then race `claims` claims of the bytes.
      const minted = await call('mintWalletNote', users[cmd.minter]!, { unit: cmd.unit, amount: cmd.amount })
      if (E.isLeft(minted)) return []
      const noteId = bodyOf(minted).note.noteId as string
      const note = bodyOf(await call('downloadWalletNote', users[cmd.minter]!, undefined, { params: { noteId } })).exactBytesB64u as string
      const claims = await Promise.all(Array.from({ length: cmd.claims }, () => call('claimWalletNote', users[cmd.claimer]!, { note })))
      expect(claims.filter(E.isRight)).toHaveLength(1)
      return []
    }
    case 'issue': {
      const issued = await issueValue(deps, { userId: users[cmd.user]!, unit: cmd.unit, amount: String(cmd.amount), idempotencyKey: `${run}-${users[cmd.user]}-${cmd.unit}-${cmd.amount}` })
      if (E.isLeft(issued)) throw new Error(issued.left.message)
      return issued.right.replayed ? [] : [{ unit: cmd.unit, amount: cmd.amount }]
    }
  }
}

function bodyOf(reply: E.Either<unknown, Reply>): any {
  if (E.isLeft(reply)) throw new Error(`refused: ${JSON.stringify(reply.left)}`)
  return (reply.right as { body: unknown }).body
}

export async function expectRollupIsSumOfEvents(deps: CoreDeps): Promise<void> {
  const totals = { transfer: 0n, note_mint: 0n, note_claim: 0n, issuance: 0n, checkout: 0n, settlement: 0n, phiCredit: 0n, phiDebit: 0n, usdCredit: 0n, usdDebit: 0n }
  let cursor: string | undefined
  for (;;) {
    const page = await readWalletLedger(deps, { limit: 200, ...(cursor ? { cursor } : {}) })
    if (E.isLeft(page)) throw new Error(page.left.message)
    for (const event of page.right.events) {
      totals[event.kind] += 1n
      const sides = walletSides(event)
      totals.phiCredit += sides.phiCredit; totals.phiDebit += sides.phiDebit; totals.usdCredit += sides.usdCredit; totals.usdDebit += sides.usdDebit
    }
    if (page.right.events.length === 0 || page.right.nextCursor === null || page.right.nextCursor === cursor) break
    cursor = page.right.nextCursor
  }
  const rollup: WalletLedgerRollup = await loadRollup(deps)
  expect(rollup).toMatchObject({
    totalTransferEvents: String(totals.transfer), totalNoteMintEvents: String(totals.note_mint), totalNoteClaimEvents: String(totals.note_claim),
    totalIssuanceEvents: String(totals.issuance), totalCheckoutEvents: String(totals.checkout), totalSettlementEvents: String(totals.settlement),
    totalPhiCreditMicro: String(totals.phiCredit), totalPhiDebitMicro: String(totals.phiDebit), totalUsdCreditCents: String(totals.usdCredit), totalUsdDebitCents: String(totals.usdDebit),
  })
}
