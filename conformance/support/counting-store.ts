/** A MemoryStore whose commits are counted, so a test can show that a refusal wrote nothing. */
import { MemoryStore } from '../../adapters/memory/index.js'
import type { Store } from '../../ports/store.js'

export interface CountingStore {
  readonly store: Store
  /** Commits made so far (successful or not). */
  commits(): number
}

/**
 * Closing the store starts a fresh MemoryStore behind the same object, so one object handed to
 * several Cairns in turn (both modes of `describeHosts`) gives each an empty store.
 *
 * @example const counted = countingStore(); createCairn({ store: counted.store }); … expect(counted.commits()).toBe(before)
 */
export function countingStore(): CountingStore {
  let current = new MemoryStore()
  let commits = 0
  const store = new Proxy(current, {
    get(_target, property) {
      if (property === 'close') return async () => void (current = new MemoryStore())
      if (property === 'commit') return (...args: Parameters<Store['commit']>) => ((commits += 1), current.commit(...args))
      const member = Reflect.get(current, property) as unknown
      return typeof member === 'function' ? (member as (...a: unknown[]) => unknown).bind(current) : member
    },
  })
  return { store, commits: () => commits }
}
