/** The fixed-window limiter: counts across hosts sharing a store, trips at the limit with Retry-After, and opens again in the next window. */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { FixedClock, MemoryStore } from '../../adapters/memory/index.js'
import { consumeRateLimit, rateLimitCollection } from './fixed-window.js'

describe('consumeRateLimit', () => {
  it('allows `limit` uses per window across concurrent callers, then answers 429 with the seconds left', async () => {
    const store = new MemoryStore()
    await store.declare([rateLimitCollection])
    const clock = new FixedClock(Date.parse('2026-06-25T00:00:10Z'))
    const rule = { limit: 5, windowMs: 60_000 }
    const results = await Promise.all(Array.from({ length: 8 }, () => consumeRateLimit({ store, clock }, 'k', rule, 'tries')))
    expect(results.filter(E.isRight)).toHaveLength(5)
    expect(results.filter(E.isLeft)[0]).toEqual(E.left({ _tag: 'RateLimited', message: 'Too many tries; try again in 50 s', retryAfterSeconds: 50 }))
    expect(E.isRight(await consumeRateLimit({ store, clock }, 'other', rule, 'tries'))).toBe(true)
    clock.advance(50_000)
    expect(await consumeRateLimit({ store, clock }, 'k', rule, 'tries')).toEqual(E.right(4))
  })
})
