import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../adapters/memory/memory-store.js'
import { PortUnavailableError } from '../ports/errors.js'
import type { Write } from '../ports/store.js'
import { InjectedFaultError, withFaults } from './fault-injection.js'

const putNote = (key: string): Write => ({ kind: 'put', collection: 'notes', key, value: key, expect: { kind: 'absent' } })

// How stores behave under these faults is part of every Store suite (conformance/suites/store-faults.ts).
describe('withFaults', () => {
  it('fails only the planned call of the planned method, before or after reaching the store', async () => {
    const store = new MemoryStore()
    const faulty = withFaults(store, [
      { method: 'commit', call: 2, when: 'before' },
      { method: 'commit', call: 3, when: 'after' },
    ])
    expect((await faulty.commit([putNote('one')])).ok).toBe(true)
    await expect(faulty.commit([putNote('two')])).rejects.toBeInstanceOf(InjectedFaultError)
    await expect(faulty.commit([putNote('three')])).rejects.toBeInstanceOf(PortUnavailableError)
    expect((await faulty.commit([putNote('four')])).ok).toBe(true)
    expect(await store.get('notes', 'two')).toBeUndefined() // 'before': never reached the store
    expect(await store.get('notes', 'three')).toMatchObject({ version: 1 }) // 'after': applied, reply lost
    expect(faulty.callsOf('commit')).toBe(4)
    expect(await faulty.get('notes', 'four')).toMatchObject({ value: 'four' })
    expect(faulty.callsOf('get')).toBe(1)
  })
})
