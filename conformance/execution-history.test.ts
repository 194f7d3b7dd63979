/** The history checker accepts serial histories and finds each kind of violation it promises to. */
import { describe, expect, it } from 'vitest'
import { checkDomainOrder, checkExecutionHistory, type ExecutionHistoryOperation } from './execution-history.js'

const genesisHead = (p: string) => `${p}0`
const op = (id: string, moves: Record<string, [string, string]>, outcome: ExecutionHistoryOperation['outcome'] = 'committed', invokedAt = 0, returnedAt = 100): ExecutionHistoryOperation => ({
  id, invokedAt, returnedAt, outcome,
  expected: Object.fromEntries(Object.entries(moves).map(([p, [from]]) => [p, from])),
  proposed: Object.fromEntries(Object.entries(moves).map(([p, [, to]]) => [p, to])),
})
const finals = (entries: Record<string, [string, number]>) => new Map(Object.entries(entries).map(([p, [head, sequence]]) => [p, { head, sequence }]))

describe('checkExecutionHistory', () => {
  it('accepts overlapping plans that chain, and finds their serial order', () => {
    const verdict = checkExecutionHistory({
      genesisHead,
      operations: [op('b', { x: ['x1', 'x2'], y: ['y0', 'y1'] }), op('a', { x: ['x0', 'x1'] }), op('c', { y: ['y0', 'yz'] }, 'not-committed')],
      finalHeads: finals({ x: ['x2', 2], y: ['y1', 1] }),
    })
    expect(verdict).toEqual({ ok: true, errors: [], order: ['a', 'b'] })
  })

  it('finds a half-written plan', () => {
    const verdict = checkExecutionHistory({ genesisHead, operations: [op('a', { x: ['x0', 'x1'], y: ['y0', 'y1'] })], finalHeads: finals({ x: ['x1', 1], y: ['y0', 0] }) })
    expect(verdict.errors.join()).toMatch(/half written/)
  })

  it('finds a gap, a lost move count and a plan answered wrongly', () => {
    expect(checkExecutionHistory({ genesisHead, operations: [op('a', { x: ['x1', 'x2'] })], finalHeads: finals({ x: ['x2', 1] }) }).errors.join()).toMatch(/gap/)
    expect(checkExecutionHistory({ genesisHead, operations: [op('a', { x: ['x0', 'x1'] })], finalHeads: finals({ x: ['x1', 2] }) }).errors.join()).toMatch(/2 moves/)
    expect(checkExecutionHistory({ genesisHead, operations: [op('a', { x: ['x0', 'x1'] }, 'not-committed')], finalHeads: finals({ x: ['x1', 1] }) }).errors.join()).toMatch(/answered not committed/)
    expect(checkExecutionHistory({ genesisHead, operations: [op('a', { x: ['x0', 'x1'] })], finalHeads: finals({ x: ['x0', 0] }) }).errors.join()).toMatch(/answered committed/)
  })

  it('finds committed plans with no serial order (chains that cross) and real-time violations', () => {
    const crossing = checkExecutionHistory({
      genesisHead,
      operations: [op('a', { x: ['x0', 'x1'], y: ['y1', 'y2'] }), op('b', { x: ['x1', 'x2'], y: ['y0', 'y1'] })],
      finalHeads: finals({ x: ['x2', 2], y: ['y2', 2] }),
    })
    expect(crossing.errors.join()).toMatch(/no serial order/)
    const lateFirst = checkExecutionHistory({
      genesisHead,
      operations: [op('a', { x: ['x0', 'x1'] }, 'committed', 10, 20), op('b', { x: ['x1', 'x2'] }, 'committed', 0, 5)],
      finalHeads: finals({ x: ['x2', 2] }),
    })
    expect(lateFirst.errors.join()).toMatch(/no serial order/)
  })
})

describe('checkDomainOrder', () => {
  const operations = [op('b', { x: ['x1', 'x2'], y: ['y0', 'y1'] }), op('a', { x: ['x0', 'x1'] }), op('c', { y: ['y0', 'yz'] }, 'not-committed')]
  const finalHeads = finals({ x: ['x2', 2], y: ['y1', 1] })

  it('accepts the committed plans\' additions in a serial order', () => {
    expect(checkDomainOrder({ genesisHead, operations, finalHeads, appendIds: ['a.0', 'b.0', 'b.1'] })).toEqual([])
  })

  it('finds additions out of order, split, missing, extra or of a plan that did not commit', () => {
    expect(checkDomainOrder({ genesisHead, operations, finalHeads, appendIds: ['b.0', 'b.1', 'a.0'] }).join()).toMatch(/out of order/)
    expect(checkDomainOrder({ genesisHead, operations, finalHeads, appendIds: ['a.0', 'b.0', 'a.1', 'b.1'] }).join()).toMatch(/not contiguous/)
    expect(checkDomainOrder({ genesisHead, operations, finalHeads, appendIds: ['a.0'] }).join()).toMatch(/b appended nothing/)
    expect(checkDomainOrder({ genesisHead, operations, finalHeads, appendIds: ['a.0', 'b.0'] }).join()).toMatch(/appended 1 additions for 2/)
    expect(checkDomainOrder({ genesisHead, operations, finalHeads, appendIds: ['a.0', 'b.0', 'b.1', 'c.0'] }).join()).toMatch(/c appended to the domain but did not commit/)
  })
})
