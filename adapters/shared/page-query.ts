/** One page of an index query as the SQL adapters (SQLite, PostgreSQL) build their statement from it. */
import type { IndexPosition } from './index-order.js'

export interface PageQuery {
  readonly collection: string
  readonly fields: readonly string[]
  readonly equals: readonly (string | number)[]
  readonly descending: boolean
  readonly after: IndexPosition | undefined
  /** Rows to fetch (one more than the page, to learn whether another page follows). */
  readonly limit: number
}
