/**
 * When a failed delivery is tried again: the schedule Standard Webhooks and Svix publish —
 * immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure (8 attempts over
 * about 27.6 hours). An endpoint that has failed every attempt for 5 days, or answers 410 Gone, is
 * disabled.
 */
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** Delay before attempt n+1 after attempt n failed (index n-1); past the end, the delivery has failed. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/** An endpoint failing without a single success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * HOUR

/** How long one attempt may take before it counts as failed. */
export const ATTEMPT_TIMEOUT_MS = 15 * SECOND

/**
 * How much longer than the attempt's deadline its lease lasts: the time to record the outcome (a
 * read and a commit, a few retries under contention) plus clock skew between hosts.
 */
export const RECORDING_MARGIN_MS = 15 * SECOND
