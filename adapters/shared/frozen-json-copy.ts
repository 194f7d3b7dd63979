/**
 * A frozen deep copy of a plain JSON value without the text round trip: what
 * `JSON.parse(JSON.stringify(value))` then deepFreeze gives, built directly. Strings are immutable,
 * so they are shared rather than copied (the round trip copied every tile's and bundle's tens of
 * kilobytes of base64 on each commit). Anything the round trip treats specially — `toJSON`,
 * non-plain objects (Date, class instances, typed arrays), functions, symbols, bigints, `undefined`
 * in arrays, a `__proto__` key, very deep or cyclic values — is declined, and the caller takes the
 * JSON round trip, so the stored value is the same in every case.
 */

/** Returned when `value` is not plain JSON this copy reproduces exactly. */
export const DECLINED: unique symbol = Symbol('declined')

/** Deeper than this is declined (JSON's own recursion then decides, and reports a cycle as it always did). */
const MAX_DEPTH = 256

export function frozenJsonCopy(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      // JSON writes -0 as 0 and every non-finite number as null; finite doubles round-trip exactly.
      return Number.isFinite(value) ? value + 0 : null
    case 'object':
      if (value === null) return null
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return DECLINED
      return Array.isArray(value) ? arrayCopy(value, depth) : objectCopy(value, depth)
    default:
      return DECLINED
  }
}

function arrayCopy(value: readonly unknown[], depth: number): unknown {
  if (Object.getPrototypeOf(value) !== Array.prototype) return DECLINED
  const out = new Array<unknown>(value.length)
  for (let i = 0; i < value.length; i++) {
    const item = value[i]
    // JSON writes undefined (and holes) in an array as null: rare enough to leave to it.
    const copy = item === undefined ? DECLINED : frozenJsonCopy(item, depth + 1)
    if (copy === DECLINED) return DECLINED
    out[i] = copy
  }
  return Object.freeze(out)
}

function objectCopy(value: object, depth: number): unknown {
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return DECLINED
  const out: Record<string, unknown> = {}
  // Object.keys is the order JSON.stringify writes members in (and so the order JSON.parse creates them).
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return DECLINED
    const member = (value as Record<string, unknown>)[key]
    if (member === undefined) continue // JSON leaves undefined members out
    const copy = frozenJsonCopy(member, depth + 1)
    if (copy === DECLINED) return DECLINED
    out[key] = copy
  }
  return Object.freeze(out)
}
