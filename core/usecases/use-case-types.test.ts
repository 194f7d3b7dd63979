/**
 * The registry is checked by the compiler against the contract table: these tests compile only
 * while a use case receives exactly what its row decodes and answers what its row declares
 * (`npm test` runs tsc, which fails on an unused or unmet @ts-expect-error).
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expectTypeOf, it } from 'vitest'
import type { ParamsOf, QueryOf, RequestBodyOf } from './operation-types.js'
import { json, type UseCaseFor, type UseCaseRegistry } from './use-case.js'
import { useCases } from './registry.js'

describe('use cases typed from the contract table', () => {
  it('hands a use case its decoded body, query and path parameters', () => {
    expectTypeOf<RequestBodyOf<'continueCairnId'>>().toHaveProperty('username')
    expectTypeOf<RequestBodyOf<'getUserinfo'>>().toMatchTypeOf<object | undefined>()
    expectTypeOf<RequestBodyOf<'getJwks'>>().toEqualTypeOf<undefined>()
    expectTypeOf<QueryOf<'getActionLedger'>>().toEqualTypeOf<{ readonly cursor?: string; readonly since?: string; readonly limit?: number }>()
    expectTypeOf<QueryOf<'authorize'>['client_id']>().toEqualTypeOf<string>()
    expectTypeOf<ParamsOf<'getLoginBootstrap'>>().toEqualTypeOf<{ readonly username: string }>()
  })

  it('refuses a use case that answers another component than its row declares', () => {
    // @ts-expect-error getJwks answers OidcJwksResponse, not a bare string
    const wrongReply: UseCaseFor<'getJwks'> = async () => E.right(json('not a key set'))
    // @ts-expect-error getJwks has no path parameter to read
    const wrongParams: UseCaseFor<'getJwks'> = async (request) => E.right(json({ keys: [], id: request.params.username }))
    const registry: UseCaseRegistry = useCases
    expectTypeOf(registry).toEqualTypeOf<UseCaseRegistry>()
    expectTypeOf(wrongReply).not.toBeAny()
    expectTypeOf(wrongParams).not.toBeAny()
  })
})
