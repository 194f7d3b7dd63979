/**
 * Freeze a JSON-like value and everything inside it, so it can be shared (and its serialised form
 * cached) without anyone changing it.
 *
 * @example const reply = deepFreeze({ ok: true, items: [1, 2] })
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
