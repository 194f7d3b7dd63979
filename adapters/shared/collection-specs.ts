/**
 * What `Store.declare` was told, per collection: unique keys and indexes by name. Declaring again is
 * idempotent and may add names; a name declared again with other fields is a RangeError (changing an
 * index under a live store is a migration, not a declaration).
 */
import type { CollectionSpec, IndexSpec, UniqueKeySpec } from '../../ports/store.js'

/** The unique keys and indexes a declaration adds to what was known. */
export interface DeclaredParts {
  readonly uniqueKeys: readonly UniqueKeySpec[]
  readonly indexes: readonly IndexSpec[]
}

interface Known {
  readonly uniqueKeys: Map<string, UniqueKeySpec>
  readonly indexes: Map<string, IndexSpec>
}

/**
 * @example
 * const specs = new CollectionSpecs()
 * specs.remember({ name: 'users', uniqueKeys: [{ name: 'email', field: 'email' }] })
 * specs.uniqueKey('users', 'email') // { name: 'email', field: 'email' }
 */
export class CollectionSpecs {
  private readonly known = new Map<string, Known>()

  /** The parts of `spec` not known yet, without remembering them. Throws RangeError on a changed name. */
  added(spec: CollectionSpec): DeclaredParts {
    assertName('collection', spec.name)
    const known = this.known.get(spec.name)
    const uniqueKeys = (spec.uniqueKeys ?? []).filter((uniqueKey) => {
      assertName('field', uniqueKey.field)
      return isNew(known?.uniqueKeys.get(uniqueKey.name), uniqueKey, [uniqueKey.field], (k) => [k.field])
    })
    const indexes = (spec.indexes ?? []).filter((index) => {
      if (index.fields.length === 0) throw new RangeError(`Index ${index.name} has no fields`)
      index.fields.forEach((field) => assertName('field', field))
      return isNew(known?.indexes.get(index.name), index, index.fields, (i) => i.fields)
    })
    return { uniqueKeys, indexes }
  }

  /** Remember `spec` (after `added` accepted it). */
  remember(spec: CollectionSpec): void {
    const known = this.known.get(spec.name) ?? { uniqueKeys: new Map(), indexes: new Map() }
    for (const uniqueKey of spec.uniqueKeys ?? []) known.uniqueKeys.set(uniqueKey.name, uniqueKey)
    for (const index of spec.indexes ?? []) known.indexes.set(index.name, index)
    this.known.set(spec.name, known)
  }

  uniqueKeys(collection: string): readonly UniqueKeySpec[] {
    return [...(this.known.get(collection)?.uniqueKeys.values() ?? [])]
  }

  /** The unique key `name` of `collection`; an undeclared one is a RangeError. */
  uniqueKey(collection: string, name: string): UniqueKeySpec {
    const found = this.known.get(collection)?.uniqueKeys.get(name)
    if (found === undefined) throw new RangeError(`Collection ${collection} declares no unique key ${name}`)
    return found
  }

  /** The index `name` of `collection`; an undeclared one is a RangeError. */
  index(collection: string, name: string): IndexSpec {
    const found = this.known.get(collection)?.indexes.get(name)
    if (found === undefined) throw new RangeError(`Collection ${collection} declares no index ${name}`)
    return found
  }
}

function isNew<T extends { readonly name: string }>(
  known: T | undefined,
  declared: T,
  declaredFields: readonly string[],
  fieldsOf: (spec: T) => readonly string[],
): boolean {
  if (known === undefined) return true
  if (fieldsOf(known).join('\u0000') !== declaredFields.join('\u0000')) {
    throw new RangeError(`${declared.name} is already declared over other fields (${fieldsOf(known).join(', ')})`)
  }
  return false
}

/**
 * Names end up inside SQL literals and JSON paths of some adapters: no quotes, no control characters.
 */
function assertName(kind: string, name: string): void {
  if (name.length === 0 || /["'\\\u0000-\u001f]/.test(name)) throw new RangeError(`Unusable ${kind} name: ${JSON.stringify(name)}`)
}
