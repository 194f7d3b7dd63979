/**
 * A Store-backed fixed-window rate limiter: one small counter document per key and window, so every
 * host sharing the store counts together. Each use is a version-guarded increment (a lost race is
 * counted again from a fresh read); past the limit the answer is RateLimited with the seconds until
 * the window ends (429 with Retry-After). Counters carry `expiresAtMs`, so the sweeper removes them.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { conflict, rateLimited, type DomainError } from '../errors/domain-error.js'
import { typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'

export const RATE_LIMIT_COUNTERS = 'rate_limit_counters'

const CounterCodec = t.readonly(t.type({ count: t.number, expiresAtMs: t.number }))
const counters = typedCollection({ name: RATE_LIMIT_COUNTERS, indexes: [{ name: 'byExpiresAt', fields: ['expiresAtMs'] }] }, CounterCodec)
export const rateLimitCollection: CollectionSpec = counters.spec

export interface RateLimit {
  /** Uses allowed per window. */
  readonly limit: number
  readonly windowMs: number
}

const MAX_ATTEMPTS = 16

/**
 * Counts one use of `key`; answers the uses left, or RateLimited naming `what`.
 * @example await consumeRateLimit(deps, 'world:visitor:abc', { limit: 10, windowMs: 60_000 }, 'messages from this visitor')
 */
export async function consumeRateLimit(deps: Pick<CoreDeps, 'store' | 'clock'>, key: string, rule: RateLimit, what: string): Promise<Either<DomainError, number>> {
  const now = deps.clock.now()
  const windowStart = now - (now % rule.windowMs)
  const windowEnd = windowStart + rule.windowMs
  const storeKey = `${key}:${windowStart}`
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const doc = await counters.get(deps.store, storeKey)
    const count = doc?.value.count ?? 0
    if (count >= rule.limit) return E.left(rateLimited(`Too many ${what}; try again in ${Math.ceil((windowEnd - now) / 1000)} s`, Math.max(1, Math.ceil((windowEnd - now) / 1000))))
    const next = { count: count + 1, expiresAtMs: windowEnd }
    const outcome = await deps.store.commit([counters.put(storeKey, next, unchangedSince(doc?.version ?? null))])
    if (outcome.ok) return E.right(rule.limit - next.count)
  }
  return E.left(conflict('Too many requests at the same moment; try again'))
}
