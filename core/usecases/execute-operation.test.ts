/**
 * The pipeline's last step: an operation whose use case is missing from the registry (an embedding
 * application serving only some areas) answers an honest 501 after authentication and decoding,
 * never a crash; every operation of the contract has a use case in Cairn's own registry.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { memoryDeps } from '../../hosts/http/describe-env.js'
import { ANONYMOUS } from '../auth/principal.js'
import * as t from 'io-ts'
import { components } from '../contract/components.js'
import { pathParameters, type OperationSpec } from '../contract/operation.js'
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

/**
 * Issue 22 §8: hostile input no operation can hold stops where every operation's input is decoded,
 * 400 before any codec or use case (no use case is registered here, so reaching one would be 501).
 */
describe('executeOperation refuses unrepresentable input for every operation', () => {
  const env = { deps: memoryDeps(), authenticator: anyone, useCases: {} }
  const LONE = 'x\ud800'
  const withBody = operations.filter((op) => op.request.kind !== 'none')
  const refusal = async (op: OperationSpec, input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }) => {
    const params = Object.fromEntries(pathParameters(op.path).map((name) => [name, 'p']))
    const answer = await executeOperation(op, { params: { ...params, ...input.params }, query: input.query ?? {}, body: input.body, credentials: {} }, env)
    return E.isLeft(answer) ? [answer.left._tag, answer.left.message] : ['answered', '']
  }
  /** 10,000 levels, built without recursion. */
  const deep = (kind: 'array' | 'object'): unknown => {
    let value: unknown = kind === 'array' ? [] : {}
    for (let level = 1; level < 10_000; level++) value = kind === 'array' ? [value] : { a: value }
    return value
  }

  it.each(withBody.map((op) => [op.operationId, op] as const))('%s: a lone surrogate in every member of its body, in a member name, and 10,000 levels in an unknown member are 400', async (_id, op) => {
    for (const member of [...memberNames(components[(op.request as { schema: keyof typeof components }).schema]), 'unknownMember']) {
      expect(await refusal(op, { body: { [member]: LONE } })).toEqual(['InvalidInput', `body.${member} must be well-formed Unicode text (it has a lone UTF-16 surrogate)`])
    }
    expect((await refusal(op, { body: { nested: [{ ['k\udc00']: 1 }] } }))[1]).toBe('body.nested.0 must not have a member name with a lone UTF-16 surrogate')
    for (const kind of ['array', 'object'] as const) {
      expect(await refusal(op, { body: { unknownMember: deep(kind) } })).toEqual(['InvalidInput', 'body must not nest arrays and objects more than 64 levels deep'])
    }
  })

  it.each(operations.filter((op) => op.query.length > 0 || pathParameters(op.path).length > 0).map((op) => [op.operationId, op] as const))('%s: a lone surrogate in a path or query parameter is 400', async (_id, op) => {
    for (const name of pathParameters(op.path)) expect((await refusal(op, { params: { [name]: LONE } }))[1]).toContain(`path.${name} must be well-formed`)
    for (const { name } of op.query) expect((await refusal(op, { query: { [name]: LONE } }))[1]).toContain(`query.${name} must be well-formed`)
  })

  it('walks 100,000 members and 64 levels without refusing them', async () => {
    let nested: unknown = 'leaf'
    for (let level = 1; level < 64; level++) nested = [nested]
    const op = operationsById.get('appendCardAuctionAction')!
    const [tag] = await refusal(op, { body: { action: 'cancel', wide: Array.from({ length: 100_000 }, (_, i) => `item ${i} \ud83d\ude00`), nested } })
    expect(tag).toBe('NotImplemented')
  })
})

/** The top-level member names a body codec declares (required and optional), through intersections. */
function memberNames(codec: t.Mixed): string[] {
  if (codec instanceof t.IntersectionType) return (codec.types as t.Mixed[]).flatMap(memberNames)
  if (codec instanceof t.InterfaceType || codec instanceof t.PartialType) return Object.keys(codec.props as object)
  return []
}
