import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/memory-store.js'
import { readFeedPage } from '../ledger/feed-page.js'
import { CorruptStreamEntryError, typedStream } from './typed-stream.js'

const ticks = typedStream('ticks', t.type({ n: t.number }))

describe('typedStream', () => {
  it('appends events and reads them back decoded', async () => {
    const store = new MemoryStore()
    expect((await store.commit([ticks.appendNext({ n: 1 })])).ok).toBe(true)
    expect((await store.commit([ticks.appendNext({ n: 2 }), ticks.appendNext({ n: 3 })])).ok).toBe(true)
    const { items } = await store.readStream('ticks', { limit: 10 })
    expect(items.map((entry) => ticks.decode(entry))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
  })

  it('refuses an entry its codec does not describe, naming the stream, sequence and field — a feed read too', async () => {
    const store = new MemoryStore()
    await store.commit([ticks.appendNext({ n: 1 }), { kind: 'appendNext', stream: 'ticks', value: { n: 'two' } }])
    const { items } = await store.readStream('ticks', { limit: 10 })
    expect(() => ticks.decode(items[1]!)).toThrow(CorruptStreamEntryError)
    expect(() => ticks.decode(items[1]!)).toThrow('Stream entry ticks#2 does not match its codec at n')
    const feed = { stream: ticks, createdAtOf: () => new Date(0).toISOString(), publish: (tick: { n: number }) => tick.n }
    await expect(readFeedPage({ store }, feed, { limit: 10 })).rejects.toThrow(CorruptStreamEntryError)
  })
})
