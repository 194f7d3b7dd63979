/**
 * When to try a request again and how long to wait: a refusal that says nothing happened (429, or
 * 503 with `Retry-After`) is retried for any method; a lost answer (network error, other 5XX) only
 * when repeating it cannot do the work twice — a GET, or a request with an `Idempotency-Key`.
 * Waits follow `Retry-After`, else exponential backoff with full jitter (AWS Architecture Blog, 2015).
 */

export interface RetryPolicy {
  /** Tries in all, the first included. @default 3 */
  readonly attempts?: number
  /** @default 250 */
  readonly baseDelayMs?: number
  /** No wait is longer, whatever `Retry-After` says. @default 20000 */
  readonly maxDelayMs?: number
}

export interface RetryContext {
  readonly method: string
  readonly idempotent: boolean
}

export function shouldRetry(context: RetryContext, status: number | 'network', retryAfterSeconds: number | undefined): boolean {
  if (status === 429) return true
  if (status === 503 && retryAfterSeconds !== undefined) return true
  const repeatable = context.idempotent || context.method === 'GET' || context.method === 'HEAD'
  return repeatable && (status === 'network' || status === 502 || status === 503 || status === 504)
}

export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  const max = policy.maxDelayMs ?? 20_000
  if (retryAfterSeconds !== undefined) return Math.min(max, retryAfterSeconds * 1000)
  return Math.floor(random() * Math.min(max, (policy.baseDelayMs ?? 250) * 2 ** attempt))
}

/** `Retry-After` as seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP date). */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')
  if (value === null) return undefined
  if (/^\d+$/u.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}
