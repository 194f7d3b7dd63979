/**
 * The pipeline's last step: an operation whose use case is missing from the registry (an embedding
 * application serving only some areas) answers an honest 501 after authentication and decoding,
 * never a crash; every operation of the contract has a use case in Cairn's own registry.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { ANONYMOUS } from '../auth/principal.js'
import { operations, operationsById } from '../contract/operations/index.js'
import { httpStatusOf } from '../errors/domain-error.js'
import { executeOperation } from './execute-operation.js'
import { useCases } from './registry.js'

const anyone = { authenticate: async () => E.right(ANONYMOUS) }

describe('executeOperation', () => {
  it('answers 501 for an operation with no use case, after decoding its input', async () => {
    const env = { deps: memoryDeps(), authenticator: anyone, useCases: {} }
    const op = operationsById.get('appendCardAuctionAction')!
    const bad = await executeOperation(op, { params: { cardId: 'c' }, query: {}, body: 'not json object', credentials: {} }, env)
    expect(E.isLeft(bad) && bad.left._tag).toBe('InvalidInput')
    const reply = await executeOperation(op, { params: { cardId: 'c' }, query: {}, body: { action: 'cancel' }, credentials: {} }, env)
    expect(E.isLeft(reply) && [reply.left._tag, httpStatusOf(reply.left), reply.left.message]).toEqual(['NotImplemented', 501, 'POST /api/game/signal-run/cards/{cardId}/auction is not built yet in this version of Cairn'])
  })

  it('finds a use case for every operation of the contract in Cairn\'s registry', () => {
    expect(operations.filter((op) => useCases[op.operationId] === undefined).map((op) => op.operationId)).toEqual([])
  })
})
