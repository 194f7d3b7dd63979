/**
 * The SQL of one page of an index query: equality on the leading fields, then keyset pagination over
 * (remaining fields…, key). NULL never compares equal or greater in SQL, so "after the cursor" is
 * spelled out per field, with NULL (which sorts first) handled explicitly; the same shape as the
 * MongoDB adapter's `beyond` filter.
 */
import type { IndexPosition } from '../shared/index-order.js'
import { DOCUMENT_VALUE_SQL } from './sqlite-deep-values.js'
import type { PageQuery } from '../shared/page-query.js'
import { documentTable } from './sqlite-collection-tables.js'
import { indexedValueSql } from './sqlite-index-sql.js'

/** SQL text and its parameters. */
export interface SqlWithParams {
  readonly sql: string
  readonly params: readonly (string | number)[]
}

/** @example pageQuerySql({ collection: 'items', fields: ['group', 'rank'], equals: ['g1'], descending: false, after: undefined, limit: 51 }) */
export function pageQuerySql(query: PageQuery): SqlWithParams {
  const params: (string | number)[] = []
  const terms: string[] = []
  query.equals.forEach((value, i) => {
    terms.push(`${indexedValueSql(query.fields[i]!)} = ?`)
    params.push(value)
  })
  const ordered = query.fields.slice(query.equals.length).map(indexedValueSql)
  if (query.after !== undefined) terms.push(beyondSql(ordered, query.after, query.descending, params))
  const direction = query.descending ? 'DESC' : 'ASC'
  const orderBy = [...ordered, 'key'].map((column) => `${column} ${direction}`).join(', ')
  params.push(query.limit)
  const where = terms.length === 0 ? '' : ` WHERE ${terms.join(' AND ')}`
  return { sql: `SELECT key, version, ${DOCUMENT_VALUE_SQL} AS json FROM ${documentTable(query.collection)}${where} ORDER BY ${orderBy} LIMIT ?`, params }
}

/** Rows strictly beyond `after` in the order (columns…, key): one branch per column that first differs. */
function beyondSql(columns: readonly string[], after: IndexPosition, descending: boolean, params: (string | number)[]): string {
  const branches: string[] = []
  for (let i = 0; i <= columns.length; i += 1) {
    const branchParams: (string | number)[] = []
    const prefix = columns.slice(0, i).map((column, j) => {
      const value = after.values[j] ?? null
      if (value === null) return `${column} IS NULL`
      branchParams.push(value)
      return `${column} = ?`
    })
    let last: string | undefined
    if (i === columns.length) {
      last = descending ? 'key < ?' : 'key > ?'
      branchParams.push(after.key)
    } else {
      const value = after.values[i] ?? null
      if (value === null) last = descending ? undefined : `${columns[i]} IS NOT NULL`
      else {
        last = descending ? `(${columns[i]} < ? OR ${columns[i]} IS NULL)` : `${columns[i]} > ?`
        branchParams.push(value)
      }
    }
    // Nothing sorts before NULL, so descending past a NULL has no branch for that column.
    if (last === undefined) continue
    branches.push(`(${[...prefix, last].join(' AND ')})`)
    params.push(...branchParams)
  }
  return `(${branches.join(' OR ')})`
}
