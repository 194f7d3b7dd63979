/** Page sizes of Store reads (ports/store.ts): defaults and the ceiling every adapter applies. */

/** Items of one query page unless the caller asks otherwise. */
export const DEFAULT_QUERY_LIMIT = 50
/** Entries of one stream page unless the caller asks otherwise. */
export const DEFAULT_STREAM_LIMIT = 100
/** The most items any page holds. */
export const MAX_PAGE_LIMIT = 1000

/**
 * `limit` as a whole number between 1 and MAX_PAGE_LIMIT, or `fallback` when absent.
 *
 * @example clampLimit(5000, DEFAULT_QUERY_LIMIT) // 1000
 */
export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || Number.isNaN(limit)) return fallback
  return Math.max(1, Math.min(MAX_PAGE_LIMIT, Math.floor(limit)))
}
