/**
 * Replies saved under idempotency keys are read back with the codec of what their operation
 * answers: what the current code saves decodes to exactly what it answered, and a saved reply that
 * does not decode is reported as a corrupt stored document (CorruptDocumentError naming the record
 * and field), never answered as if it were a reply.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeEach, describe, expect, it } from 'vitest'
import { openValueAuthority } from '../../conformance/support/value-authority.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { FixedClock } from '../../adapters/memory/fixed-clock.js'
import { memoryDeps, type MemoryDeps } from '../../hosts/http/describe-env.js'
import type { Json } from '../../ports/store.js'
import { collections } from '../usecases/collections.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import type { OperationRequest, Reply, UseCase } from '../usecases/use-case.js'
import { loadAccount, walletAccount } from './accounts.js'
import { idempotencyClaim, VALUE_IDEMPOTENCY } from './idempotency.js'
import { issueValue, type IssueValueInput } from './issue-value.js'
import { valueUseCases } from './index.js'

/** Moves a millisecond at every read, so an answer built from a second read of the clock differs from the saved one. */
class TickingClock extends FixedClock {
  override now(): number {
    const now = super.now()
    this.advance(1)
    return now
  }
}

let deps: MemoryDeps
let ada: string
beforeEach(async () => {
  deps = memoryDeps({ clock: new TickingClock(Date.parse('2026-06-25T00:00:00Z')) })
  await deps.store.declare(collections)
  ada = await createValueUser(deps.store, 'ada')
})

/** Stores `reply` under the claim of (operation, owner, key, body), as a commit that saved it would have. */
async function storeReply(operation: string, owner: string, key: string, body: unknown, reply: Json): Promise<string> {
  const claim = idempotencyClaim(operation, owner, key, body)
  if (E.isLeft(claim)) throw new Error(claim.left.message)
  const record = { key, requestDigest: claim.right.requestDigest, status: 'committed', reply, entryId: null, createdAt: new Date(0).toISOString() }
  expect((await deps.store.commit([{ kind: 'put', collection: VALUE_IDEMPOTENCY, key: claim.right.storeKey, value: record, expect: { kind: 'absent' } }])).ok).toBe(true)
  return claim.right.storeKey
}

describe('an issuance\'s saved reply', () => {
  const grant = (idempotencyKey: string): IssueValueInput => ({ userId: ada, unit: 'phi', amount: '5000', idempotencyKey })

  it('replays exactly what the issuance answered, its published event and receipt included', async () => {
    const issued = await issueValue(deps, grant('g-1'))
    if (E.isLeft(issued)) throw new Error(issued.left.message)
    expect(issued.right.replayed).toBe(false)
    expect(issued.right.event.receipt.log.leaf.kind).toBe('cairn.wallet_ledger_event')
    expect(await issueValue(deps, grant('g-1'))).toEqual(E.right({ ...issued.right, replayed: true }))
  })

  it('that does not decode is reported as a corrupt stored record, and moves nothing', async () => {
    const issued = await issueValue(deps, grant('g-1'))
    if (E.isLeft(issued)) throw new Error(issued.left.message)
    const { receipt: _, ...eventWithoutReceipt } = issued.right.event
    const storeKey = await storeReply('issuance', 'operator', 'g-bad', grant('g-bad'), { entryId: issued.right.entryId, event: eventWithoutReceipt })
    const replayed = issueValue(deps, grant('g-bad'))
    await expect(replayed).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(replayed).rejects.toThrow(new RegExp(`^Stored document ${VALUE_IDEMPOTENCY}/${storeKey} does not match its codec at reply\\.event\\.receipt$`))
    expect((await loadAccount(deps, 'phi', walletAccount(ada))).balance).toBe(5000n)
  })
})

describe('a value execution\'s saved outcome', () => {
  let authorityDigest: string
  beforeEach(async () => {
    expect(E.isRight(await issueValue(deps, { userId: ada, unit: 'phi', amount: '1000', idempotencyKey: 'seed' }))).toBe(true)
    authorityDigest = await openValueAuthority(deps, valueBearer(ada))
  })
  const run = (op: keyof typeof valueUseCases, body: unknown, extra: Partial<OperationRequest> = {}) =>
    (valueUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: valueBearer(ada), ...extra }, deps)
  const reserveBody = (idempotencyKey: string, amountPhiMicro: string) => ({ intent: { schema: 'cairn.value.reserve.v1', idempotencyKey, amountPhiMicro }, authorityDigest })
  const lookup = (idempotencyKey: string) => run('getValueExecutionByIdempotency', undefined, { params: { idempotencyKey } })
  const bodyOf = (reply: E.Either<unknown, Reply>) => {
    if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error('not a JSON reply')
    return reply.right.body
  }

  it('replays and looks up exactly what was answered, committed or zero-write', async () => {
    for (const [key, amount, status] of [['r-1', '400', 'committed'], ['r-2', '1000000', 'zero-write']] as const) {
      const answered = bodyOf(await run('executeReserve', reserveBody(key, amount)))
      expect(answered).toMatchObject({ status })
      expect(bodyOf(await run('executeReserve', reserveBody(key, amount)))).toEqual(answered)
      expect(bodyOf(await lookup(key))).toEqual(answered)
    }
  })

  it('that does not decode is reported as a corrupt stored record by the lookup and by a retry', async () => {
    const body = reserveBody('r-bad', '400')
    const storeKey = await storeReply('value-execution', ada, 'r-bad', body, { ok: true, status: 'committed', idempotencyKey: 'r-bad', receiptDigest: 'not a digest' })
    for (const read of [lookup('r-bad'), run('executeReserve', body)]) {
      await expect(read).rejects.toBeInstanceOf(CorruptDocumentError)
      await expect(read).rejects.toThrow(new RegExp(`^Stored document ${VALUE_IDEMPOTENCY}/${storeKey} does not match its codec at reply\\.receiptDigest$`))
    }
  })
})
