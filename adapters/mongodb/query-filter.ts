/**
 * The MongoDB filter and sort of one page of an index query. MongoDB orders absent/null before
 * numbers before strings, and its comparison operators only compare values of one type ("type
 * bracketing"): continuing after a number must also admit every string, and so on. The filters here
 * spell that out so a page continues exactly where the previous one stopped.
 */
import type { Document, Sort } from 'mongodb'
import type { IndexPosition } from '../shared/index-order.js'
import { indexPath, indexValue } from './index-keys.js'

type Direction = 1 | -1

/** Filter and sort for documents whose first fields equal `equals`, ordered by the rest and the key. */
export function indexQuery(
  fields: readonly string[],
  equals: readonly (string | number)[],
  direction: Direction,
  after: IndexPosition | undefined,
): { readonly filter: Document; readonly sort: Sort; readonly orderedFields: readonly string[] } {
  const equalities: Document = {}
  equals.forEach((value, i) => {
    equalities[indexPath(fields[i] as string)] = indexValue(value)
  })
  const orderedFields = fields.slice(equals.length)
  const sort: Record<string, Direction> = {}
  for (const field of orderedFields) sort[indexPath(field)] = direction
  sort['_id'] = direction
  const filter = after === undefined ? equalities : { $and: [equalities, beyond(orderedFields, after, direction)] }
  return { filter, sort, orderedFields }
}

/** Documents strictly beyond `after` in the order (fields…, key) going `direction`. */
function beyond(fields: readonly string[], after: IndexPosition, direction: Direction): Document {
  const branches: Document[] = []
  for (let i = 0; i <= fields.length; i += 1) {
    const prefix = fields.slice(0, i).map((field, j) => equalTo(indexPath(field), indexValue(after.values[j] ?? null)))
    const last =
      i === fields.length
        ? { _id: direction === 1 ? { $gt: after.key } : { $lt: after.key } }
        : strictlyBeyond(indexPath(fields[i] as string), indexValue(after.values[i] ?? null), direction)
    branches.push({ $and: [...prefix, last] })
  }
  return { $or: branches }
}

function equalTo(path: string, value: string | number | null): Document {
  // `{ path: null }` matches a null or an absent field, which sort together.
  return { [path]: value }
}

const NOTHING: Document = { _id: { $in: [] } }

function strictlyBeyond(path: string, value: string | number | null, direction: Direction): Document {
  if (direction === 1) {
    if (value === null) return { [path]: { $type: ['number', 'string'] } }
    if (typeof value === 'number') return { $or: [{ [path]: { $gt: value } }, { [path]: { $type: 'string' } }] }
    return { [path]: { $gt: value } }
  }
  if (value === null) return NOTHING
  if (typeof value === 'number') return { $or: [{ [path]: { $lt: value } }, { [path]: null }] }
  return { $or: [{ [path]: { $lt: value } }, { [path]: { $type: 'number' } }, { [path]: null }] }
}
