// The fake's document storage: BSON encode/decode/peek, dotted paths and canonical ids.
import { BSON } from 'mongodb'

export type Doc = Record<string, unknown>

export function encode(doc: Doc): Uint8Array {
  return BSON.serialize(doc)
}

export function decode(bytes: Uint8Array): Doc {
  return BSON.deserialize(bytes) as Doc
}

const peeked = new WeakMap<Uint8Array, Doc>()

/** A decoded document kept for matching only (never handed out, so never changed). */
export function peek(bytes: Uint8Array): Doc {
  let doc = peeked.get(bytes)
  if (doc === undefined) {
    doc = decode(bytes)
    peeked.set(bytes, doc)
  }
  return doc
}

export function idKey(id: unknown): string {
  return canonical({ id })
}

export function canonical(value: unknown): string {
  return JSON.stringify(BSON.EJSON.serialize({ value }, { relaxed: false }))
}

/**
 * The values a dotted path reaches, as a server sees them: a path walks into every element of an
 * array it meets, and an array at the end counts as itself and as each of its elements. Empty when
 * the path reaches nothing (a missing field).
 */
export function valuesAt(doc: unknown, path: string): unknown[] {
  let current: unknown[] = [doc]
  for (const part of path.split('.')) {
    const next: unknown[] = []
    for (const value of current) {
      if (Array.isArray(value)) {
        for (const item of value) if (item !== null && typeof item === 'object' && !Array.isArray(item) && part in item) next.push((item as Doc)[part])
      } else if (value !== null && typeof value === 'object' && part in value) {
        next.push((value as Doc)[part])
      }
    }
    current = next
  }
  return current.flatMap((value) => (Array.isArray(value) ? [value, ...value] : [value]))
}

/** The value at a dotted path without walking into arrays (for $set and error messages). */
export function resolvePath(doc: unknown, path: string): unknown {
  let current: unknown = doc
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined
    current = (current as Doc)[part]
  }
  return current
}

export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.')
  let current = doc
  for (const part of parts.slice(0, -1)) {
    current[part] = { ...((current[part] as Doc | undefined) ?? {}) }
    current = current[part] as Doc
  }
  current[parts.at(-1)!] = value
}
