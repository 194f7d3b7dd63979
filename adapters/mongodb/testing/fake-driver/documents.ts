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
