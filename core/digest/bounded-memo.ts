/**
 * Remembers the results of a pure function of a secret key and a string, up to `capacity` per key
 * (then starts over): for values that cost an HMAC and are asked for again and again, such as the
 * pseudonym of a user who moves value often. Keys are held weakly, so a rotated secret's memo goes
 * with it.
 *
 * @example const pseudonym = memoUnderKey(10_000, (key, userId) => hmac(key, userId)); pseudonym(key, 'usr_1')
 */
export function memoUnderKey(capacity: number, compute: (key: Uint8Array, input: string) => string): (key: Uint8Array, input: string) => string {
  const memos = new WeakMap<Uint8Array, Map<string, string>>()
  return (key, input) => {
    let known = memos.get(key)
    if (!known || known.size >= capacity) memos.set(key, (known = new Map()))
    let value = known.get(input)
    if (value === undefined) known.set(input, (value = compute(key, input)))
    return value
  }
}
