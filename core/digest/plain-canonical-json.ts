/**
 * RFC 8785 text of plain JSON values: a copy of the value with every object's members in RFC 8785
 * order, written by the engine's JSON.stringify — the `canonicalize` package's result, without its
 * per-character surrogate scan in JavaScript, its `seen` set and its intermediate arrays, and with
 * the text built natively (canonical JSON is among the largest JavaScript costs of a seal and of a
 * transfer). JSON.stringify writes strings and numbers exactly as RFC 8785 (and the package) do;
 * only member order is ours. Whatever the package treats specially — `toJSON`, non-finite numbers,
 * lone surrogates, undefined or non-JSON array items, symbols, functions, bigints, very deep or
 * cyclic values — is declined, and so is any member name an object would not keep in insertion
 * order (array indices, which engines list first by number, and `__proto__`); the caller then asks
 * the package, so results and errors are the package's in every case.
 */

import { isWellFormed } from '../encoding/untrusted-json.js'

/** Returned when `value` is not plain JSON this writer reproduces exactly. */
export const DECLINED: unique symbol = Symbol('declined')

/** Deeper than this is declined (the package then decides, and reports a cycle as it always did). */
const MAX_DEPTH = 256

export function plainCanonicalJson(value: unknown): string | typeof DECLINED {
  const ordered = orderedCopy(value, 0)
  return ordered === DECLINED ? DECLINED : JSON.stringify(ordered)
}

/** `value` with members in RFC 8785 order (UTF-16 code units), or DECLINED. */
function orderedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value) ? value : DECLINED
    case 'number':
      return Number.isFinite(value) ? value : DECLINED
    case 'boolean':
      return value
    case 'object':
      if (value === null) return null
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return DECLINED
      return Array.isArray(value) ? orderedArray(value, depth) : orderedObject(value as Record<string, unknown>, depth)
    default:
      return DECLINED
  }
}

function orderedArray(value: readonly unknown[], depth: number): unknown[] | typeof DECLINED {
  const copy = new Array<unknown>(value.length)
  for (let i = 0; i < value.length; i++) {
    const item = value[i]
    const ordered = item === undefined ? DECLINED : orderedCopy(item, depth + 1)
    if (ordered === DECLINED) return DECLINED
    copy[i] = ordered
  }
  return copy
}

function orderedObject(value: Record<string, unknown>, depth: number): Record<string, unknown> | typeof DECLINED {
  const copy: Record<string, unknown> = {}
  // Default sort: by UTF-16 code units, as RFC 8785 orders members (and as the package sorts).
  for (const key of Object.keys(value).sort()) {
    const member = value[key]
    if (member === undefined) continue // left out, as the package leaves it out
    if (!keptInOrder(key) || !isWellFormed(key)) return DECLINED
    const ordered = orderedCopy(member, depth + 1)
    if (ordered === DECLINED) return DECLINED
    copy[key] = ordered
  }
  return copy
}

/** False for names an object lists out of insertion order (array indices) or does not keep as a member (`__proto__`). */
function keptInOrder(key: string): boolean {
  if (key === '__proto__') return false
  const first = key.charCodeAt(0)
  if (first < 48 || first > 57) return true
  const index = Number(key)
  return !(index >>> 0 === index && index !== 4294967295 && String(index) === key)
}
