/** A shared resource is made once for every caller, made again after a failure, released once, then refused. */
import { describe, expect, it } from 'vitest'
import { MadeOnFirstUse } from './made-on-first-use.js'

describe('MadeOnFirstUse', () => {
  const closed = () => new Error('released')

  it('makes nothing until asked, then one resource for every caller, released once', async () => {
    let made = 0
    const released: number[] = []
    const shared = new MadeOnFirstUse(async () => ++made, async (resource) => void released.push(resource))
    expect(made).toBe(0)
    expect(await Promise.all([shared.get(closed), shared.get(closed)])).toEqual([1, 1])
    await shared.dispose()
    await shared.dispose()
    expect(released).toEqual([1])
    await expect(shared.get(closed)).rejects.toThrow('released')
    expect(made).toBe(1)
  })

  it('forgets a failed making, so the next call tries again', async () => {
    let attempts = 0
    const shared = new MadeOnFirstUse(async () => {
      attempts += 1
      if (attempts === 1) throw new Error('unreachable')
      return 'client'
    }, async () => undefined)
    await expect(shared.get(closed)).rejects.toThrow('unreachable')
    await expect(shared.get(closed)).resolves.toBe('client')
  })

  it('releases nothing when nothing was made', async () => {
    let releases = 0
    const shared = new MadeOnFirstUse(async () => 'x', async () => void (releases += 1))
    await shared.dispose()
    expect(releases).toBe(0)
  })
})
