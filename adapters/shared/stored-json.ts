/**
 * The form in which a store keeps a Json value: the value after a trip through JSON text (so every
 * adapter keeps the same thing: `-0` becomes `0`, `undefined` members vanish), deeply frozen so
 * nobody holding it can change what is stored.
 */
import { deepFreeze } from '../../core/encoding/deep-freeze.js'
import type { Json } from '../../ports/store.js'
import { DECLINED, frozenJsonCopy } from './frozen-json-copy.js'

/**
 * A frozen deep copy of `value` as JSON keeps it; a value with no JSON form is a TypeError.
 *
 * @example const stored = toStoredJson({ a: [1, 2] }); Object.isFrozen(stored) // true
 */
export function toStoredJson<T extends Json>(value: T): T {
  const copy = frozenJsonCopy(value)
  if (copy !== DECLINED) return copy as T
  const text = JSON.stringify(value)
  if (text === undefined) throw new TypeError('The value has no JSON form')
  return deepFreeze(JSON.parse(text) as T)
}

export { deepFreeze }
