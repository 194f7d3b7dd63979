import { describe, expect, it } from 'vitest'
import { StreamTurns } from './stream-turns.js'

/** A promise and the function that settles it. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

const turns = () => new Promise((resolve) => setImmediate(resolve))

describe('StreamTurns', () => {
  it('runs commits of one stream one after another, in the order they came', async () => {
    const line = new StreamTurns()
    const log: string[] = []
    const first = gate()
    const a = line.run(['log'], async () => (log.push('a in'), await first.opened, log.push('a out')))
    const b = line.run(['log', 'actions'], async () => log.push('b'))
    const c = line.run(['actions'], async () => log.push('c'))
    await turns()
    expect(log).toEqual(['a in'])
    first.open()
    await Promise.all([a, b, c])
    expect(log).toEqual(['a in', 'a out', 'b', 'c'])
  })

  it('never holds commits on other streams, or without appends', async () => {
    const line = new StreamTurns()
    const held = gate()
    const holding = line.run(['log'], () => held.opened)
    expect(await line.run(['feed'], async () => 'feed')).toBe('feed')
    expect(await line.run([], async () => 'documents only')).toBe('documents only')
    held.open()
    await holding
  })

  it('lets the next commit go when one fails, and forgets streams nobody is waiting on', async () => {
    const line = new StreamTurns()
    await expect(line.run(['log'], async () => { throw new Error('failed inside') })).rejects.toThrow('failed inside')
    expect(await line.run(['log'], async () => 'after')).toBe('after')
    expect((line as unknown as { last: Map<string, unknown> }).last.size).toBe(0)
  })
})
