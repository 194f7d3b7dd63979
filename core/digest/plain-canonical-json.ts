/**
 * RFC 8785 text of plain JSON values, written in one pass: the `canonicalize` package's result,
 * without its per-character surrogate scan in JavaScript, its `seen` set and its intermediate
 * arrays (canonical JSON was the largest JavaScript cost of a seal after the signatures). Whatever
 * the package treats specially — `toJSON`, non-finite numbers, lone surrogates, undefined or
 * non-JSON array items, symbols, functions, bigints, very deep or cyclic values — is declined, and
 * the caller asks the package, so results and errors are the package's in every case.
 */

import { isWellFormed } from '../encoding/untrusted-json.js'

/** Returned when `value` is not plain JSON this writer reproduces exactly. */
export const DECLINED: unique symbol = Symbol('declined')

/** Deeper than this is declined (the package then decides, and reports a cycle as it always did). */
const MAX_DEPTH = 256

export function plainCanonicalJson(value: unknown, depth = 0): string | typeof DECLINED {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value) ? JSON.stringify(value) : DECLINED
    case 'number':
      // ECMAScript number serialisation is RFC 8785's (the package writes numbers with JSON.stringify too).
      return Number.isFinite(value) ? JSON.stringify(value) : DECLINED
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      if (value === null) return 'null'
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return DECLINED
      return Array.isArray(value) ? arrayText(value, depth) : objectText(value as Record<string, unknown>, depth)
    default:
      return DECLINED
  }
}

function arrayText(value: readonly unknown[], depth: number): string | typeof DECLINED {
  let out = '['
  for (let i = 0; i < value.length; i++) {
    const item = value[i]
    const text = item === undefined ? DECLINED : plainCanonicalJson(item, depth + 1)
    if (text === DECLINED) return DECLINED
    out += i === 0 ? text : `,${text}`
  }
  return `${out}]`
}

function objectText(value: Record<string, unknown>, depth: number): string | typeof DECLINED {
  let out = '{'
  // Default sort: by UTF-16 code units, as RFC 8785 orders members (and as the package sorts).
  for (const key of Object.keys(value).sort()) {
    const member = value[key]
    if (member === undefined) continue // left out, as the package leaves it out
    const text = plainCanonicalJson(member, depth + 1)
    if (text === DECLINED || !isWellFormed(key)) return DECLINED
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${text}`
  }
  return `${out}}`
}
