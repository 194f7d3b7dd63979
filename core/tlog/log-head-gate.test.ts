import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../adapters/memory/index.js'
import { appendingToLog, holdingLogHead } from './log-head-gate.js'

/** A promise and the hand that settles it. */
function later(): { promise: Promise<void>; settle: () => void } {
  let settle!: () => void
  const promise = new Promise<void>((resolve) => (settle = resolve))
  return { promise, settle }
}

const turns = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('the log-head gate', () => {
  it('lets appends run together, and a sequencer in only once every append under way is done', async () => {
    const store = new MemoryStore()
    const log: string[] = []
    const firstAppend = later()
    const secondAppend = later()
    const a = appendingToLog(store, async () => (log.push('a in'), await firstAppend.promise, log.push('a out')))
    const b = appendingToLog(store, async () => (log.push('b in'), await secondAppend.promise, log.push('b out')))
    const sequencer = holdingLogHead(store, async () => log.push('sequencer'))
    await turns()
    expect(log).toEqual(['a in', 'b in'])
    firstAppend.settle()
    await turns()
    expect(log).toEqual(['a in', 'b in', 'a out'])
    secondAppend.settle()
    await Promise.all([a, b, sequencer])
    expect(log).toEqual(['a in', 'b in', 'a out', 'b out', 'sequencer'])
  })

  it('holds appends that arrive while a sequencer waits or runs behind it, then lets them in before the next sequencer', async () => {
    const store = new MemoryStore()
    const log: string[] = []
    const running = later()
    const holding = later()
    const first = appendingToLog(store, async () => (log.push('append 1'), await running.promise))
    const sequencer = holdingLogHead(store, async () => (log.push('sequencer 1 in'), await holding.promise, log.push('sequencer 1 out')))
    const late = appendingToLog(store, async () => log.push('append 2')) // behind the waiting sequencer
    await turns()
    expect(log).toEqual(['append 1'])
    running.settle()
    await turns()
    expect(log).toEqual(['append 1', 'sequencer 1 in'])
    const next = holdingLogHead(store, async () => log.push('sequencer 2'))
    holding.settle()
    await Promise.all([first, sequencer, late, next])
    expect(log).toEqual(['append 1', 'sequencer 1 in', 'sequencer 1 out', 'append 2', 'sequencer 2'])
  })

  it('keeps one gate per Store, and lets the next holder in when a holder throws', async () => {
    const [one, other] = [new MemoryStore(), new MemoryStore()]
    const held = later()
    const holding = holdingLogHead(one, () => held.promise)
    let ranOnOther = false
    await appendingToLog(other, async () => (ranOnOther = true))
    expect(ranOnOther).toBe(true)
    held.settle()
    await holding
    await expect(holdingLogHead(one, async () => { throw new Error('failed inside') })).rejects.toThrow('failed inside')
    await expect(appendingToLog(one, async () => 'after')).resolves.toBe('after')
  })
})
