/**
 * Whether `JSON.stringify` already writes a value's RFC 8785 text: plain JSON — finite numbers,
 * well-formed strings, booleans, null, arrays and plain objects, nothing with `toJSON` — whose
 * every object lists its members in canonical order (by UTF-16 code units), as parsing canonical
 * text gives them back. Then the native writer answers in one pass with no intermediate strings:
 * checking that a sealed file's proof is canonical, and hashing parsed canonical JSON, cost a
 * third of what writing it member by member did. Anything else is left to the writers that decide it.
 */
import { isWellFormed } from '../encoding/untrusted-json.js'

/** As deep as the plain writer goes; deeper values are left to it (and it to the package). */
const MAX_DEPTH = 256

export function inCanonicalOrder(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value)
    case 'number':
      return Number.isFinite(value)
    case 'boolean':
      return true
    case 'object': {
      if (value === null) return true
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
      const prototype = Object.getPrototypeOf(value)
      if (Array.isArray(value)) return prototype === Array.prototype && itemsInOrder(value, depth)
      // Boxed primitives, dates, maps and class instances: JSON.stringify writes some of them its own way.
      return (prototype === Object.prototype || prototype === null) && membersInOrder(value as Record<string, unknown>, depth)
    }
    default:
      return false
  }
}

function itemsInOrder(items: readonly unknown[], depth: number): boolean {
  for (let i = 0; i < items.length; i++) if (!inCanonicalOrder(items[i], depth + 1)) return false
  return true
}

function membersInOrder(object: Record<string, unknown>, depth: number): boolean {
  // JSON.stringify writes members in this order (the own enumerable string keys, integer-like first).
  const keys = Object.keys(object)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if ((i > 0 && !(keys[i - 1]! < key)) || !isWellFormed(key) || !inCanonicalOrder(object[key], depth + 1)) return false
  }
  return true
}
