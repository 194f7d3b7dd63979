/**
 * A Store with something in the way of its commits, for tests and benches that count commits, see
 * what they write, or let another process act just before one: `around` is given each commit's
 * writes and the store's own commit to call. Every other member passes through, bound to the store
 * once (a bench calls them in its hot loop).
 *
 * @example const counted = aroundCommit(store, (writes, commit) => (commits++, commit(writes)))
 */
import type { CommitOutcome, Store, Write } from '../../ports/store.js'

export function aroundCommit(store: Store, around: (writes: readonly Write[], commit: (writes: readonly Write[]) => Promise<CommitOutcome>) => Promise<CommitOutcome>): Store {
  const commit = (writes: readonly Write[]) => store.commit(writes)
  const intercepted = (writes: readonly Write[]) => around(writes, commit)
  const bound = new Map<PropertyKey, unknown>()
  return new Proxy(store, {
    get(target, property) {
      if (property === 'commit') return intercepted
      const value = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      if (!bound.has(property)) bound.set(property, value.bind(target))
      return bound.get(property)
    },
  })
}
