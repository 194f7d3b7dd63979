import { describe, expect, it } from 'vitest'
import { PortUnavailableError } from '../../ports/errors.js'
import { MemoryStore } from './memory-store.js'

// The Store contract itself is proven by conformance/matrix.test.ts; these are MemoryStore's own promises.
describe('MemoryStore', () => {
  it('hands out frozen documents and entries, so nobody can change stored state through them', async () => {
    const store = new MemoryStore()
    const outcome = await store.commit([
      { kind: 'put', collection: 'c', key: 'k', value: { list: [1] }, expect: { kind: 'absent' } },
      { kind: 'append', stream: 's', value: { n: 1 }, expectHead: null },
    ])
    const document = await store.get('c', 'k')
    expect(Object.isFrozen(document)).toBe(true)
    expect(Object.isFrozen((document?.value as { list: number[] }).list)).toBe(true)
    expect(outcome.ok && Object.isFrozen(outcome.appended[0]?.value)).toBe(true)
    expect(() => (document!.value as { list: number[] }).list.push(2)).toThrow(TypeError)
    // The document and entry objects themselves, not only their values: neither can be re-pointed.
    const [entry] = (await store.readStream('s')).items
    expect(Object.isFrozen(entry) && outcome.ok && Object.isFrozen(outcome.documents[0]) && Object.isFrozen(outcome.appended[0])).toBe(true)
    expect(() => ((document as { value: unknown }).value = { list: [9] })).toThrow(TypeError)
    expect(() => ((entry as { sequence: number }).sequence = 7)).toThrow(TypeError)
    expect((await store.get('c', 'k'))?.value).toEqual({ list: [1] })
  })

  it('refuses a unique key that stored documents already break, and remembers nothing of it', async () => {
    const store = new MemoryStore()
    await store.commit([
      { kind: 'put', collection: 'users', key: 'u1', value: { email: 'same' }, expect: { kind: 'absent' } },
      { kind: 'put', collection: 'users', key: 'u2', value: { email: 'same' }, expect: { kind: 'absent' } },
    ])
    await expect(store.declare([{ name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])).rejects.toBeInstanceOf(RangeError)
    await expect(store.getByUnique('users', 'byEmail', 'same')).rejects.toBeInstanceOf(RangeError)
  })

  it('indexes documents stored before their unique key was declared', async () => {
    const store = new MemoryStore()
    await store.commit([{ kind: 'put', collection: 'users', key: 'u1', value: { email: 'a' }, expect: { kind: 'absent' } }])
    await store.declare([{ name: 'users', uniqueKeys: [{ name: 'byEmail', field: 'email' }] }])
    expect(await store.getByUnique('users', 'byEmail', 'a')).toMatchObject({ key: 'u1' })
  })

  it('refuses a name declared again over other fields', async () => {
    const store = new MemoryStore()
    await store.declare([{ name: 'items', indexes: [{ name: 'byRank', fields: ['rank'] }] }])
    await expect(store.declare([{ name: 'items', indexes: [{ name: 'byRank', fields: ['score'] }] }])).rejects.toBeInstanceOf(RangeError)
  })

  it('refuses calls once closed', async () => {
    const store = new MemoryStore()
    await store.close()
    await expect(store.get('c', 'k')).rejects.toBeInstanceOf(PortUnavailableError)
  })
})
