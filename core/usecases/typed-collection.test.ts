import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import * as E from 'fp-ts/lib/Either.js'
import { CorruptDocumentError, failedPaths, typedCollection } from './typed-collection.js'

const notes = typedCollection({ name: 'notes' }, t.type({ title: t.string, stars: t.number }))

describe('typedCollection', () => {
  it('writes records and reads them back decoded, with their versions', async () => {
    const store = new MemoryStore()
    await store.declare([notes.spec])
    expect(await notes.get(store, 'n')).toBeUndefined()
    expect((await store.commit([notes.put('n', { title: 'a', stars: 3 }, { kind: 'absent' })])).ok).toBe(true)
    expect(await notes.get(store, 'n')).toEqual({ value: { title: 'a', stars: 3 }, version: 1 })
    expect(notes.decode((await store.get('notes', 'n'))!)).toEqual({ title: 'a', stars: 3 })
  })

  it('refuses a stored document its codec does not describe, naming the collection, key and field', async () => {
    const store = new MemoryStore()
    await store.declare([notes.spec])
    await store.commit([{ kind: 'put', collection: 'notes', key: 'bad', value: { title: 'a', stars: 'many' }, expect: { kind: 'absent' } }])
    const read = notes.get(store, 'bad')
    await expect(read).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(read).rejects.toThrow('Stored document notes/bad does not match its codec at stars')
  })

  it('names fields by their path: array items by index, the parts of intersections and unions by nothing', () => {
    const owner = t.readonly(t.intersection([t.type({ name: t.string }), t.partial({ email: t.union([t.string, t.null]) })]))
    const codec = t.intersection([t.type({ owners: t.array(owner) }), t.partial({ note: t.string })])
    const decoded = codec.decode({ owners: [{ name: 'a' }, { name: 7, email: 3 }], note: 1 })
    expect(E.isLeft(decoded) && failedPaths(decoded.left)).toBe('owners.1.name, owners.1.email, note')
  })
})
