/** Every value operation answers its contract's response component (decoded with the contract's own codec). */
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { openValueAuthority } from '../../conformance/support/value-authority.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { components } from '../contract/components.js'
import { operationsById } from '../contract/operations/index.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { collections } from '../usecases/collections.js'
import type { OperationRequest, UseCase } from '../usecases/use-case.js'
import { issueValue, valueUseCases } from './index.js'

describe('value replies match the contract', () => {
  it('for every built value operation, success and zero-write alike', async () => {
    const base = memoryDeps()
    const deps = { ...base, payments: new TestPaymentProcessor(base.clock, base.config.baseUrl) }
    await deps.store.declare(collections)
    const ada = await createValueUser(deps.store, 'ada')
    const bob = await createValueUser(deps.store, 'bob')
    await issueValue(deps, { userId: ada, unit: 'phi', amount: '1000', idempotencyKey: 'seed' })
    const checked = new Set<string>()
    const check = async (op: keyof typeof valueUseCases, body: unknown, extra: Partial<OperationRequest> = {}) => {
      const reply = await (valueUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: valueBearer(ada), ...extra }, deps)
      if (E.isLeft(reply) || reply.right.kind !== 'json') throw new Error(`${op} refused`)
      const codec = components[operationsById.get(op)!.response.schema as keyof typeof components]
      const decoded = codec.decode(reply.right.body)
      expect(E.isLeft(decoded) ? formatDecodeErrors(decoded.left, 'body') : 'ok', op).toBe('ok')
      checked.add(op)
      return reply.right.body as any
    }
    const authorityDigest = await openValueAuthority(deps, valueBearer(ada))
    const intent = (schema: string, key: string, extra: Record<string, string>) => ({ intent: { schema, idempotencyKey: key, ...extra }, authorityDigest })
    await check('getConnectWallet', undefined)
    await check('createTransfer', { recipientUserId: bob, unit: { currency: 'phi', amount: '10' } })
    await check('getWalletLedger', undefined, { query: { limit: 10 } })
    await check('executeReserve', intent('cairn.value.reserve.v1', 'r', { amountPhiMicro: '100' }))
    await check('executeSettlement', intent('cairn.value.settlement.v1', 's', { amountPhiMicro: '1000000', counterpartySubjectId: bob }))
    await check('getValueExecutionByIdempotency', undefined, { params: { idempotencyKey: 'r' } })
    await check('getValueExecutionByIdempotency', undefined, { params: { idempotencyKey: 'never' } })
    const { sessionId } = await check('createConnectCheckout', { amountUsd: '1.00', currency: 'usd' })
    await check('getConnectCheckoutSession', undefined, { query: { sessionId } })
    await check('createEmbedCheckout', { amountUsd: '1.00', currency: 'usd', targetUsername: 'bob', mode: 'embedded' })
    const { note } = await check('mintWalletNote', { unit: 'phi', amount: '5' })
    const download = await check('downloadWalletNote', undefined, { params: { noteId: note.noteId } })
    await check('claimWalletNote', { note: download.exactBytesB64u })
    const second = await check('mintWalletNote', { unit: 'phi', amount: '5' })
    const bytes = await check('downloadWalletNote', undefined, { params: { noteId: second.note.noteId } })
    await check('claimEmbedNote', { targetUsername: 'bob', note: bytes.exactBytesB64u })
    expect([...checked].sort()).toEqual(Object.keys(valueUseCases).sort())
  })
})
