import type { Clock } from '../../ports/clock.js'

/**
 * A clock that only moves when told: tests pin time with it.
 *
 * @example const clock = new FixedClock(Date.parse('2026-06-25T00:00:00Z')); clock.advance(1000)
 */
export class FixedClock implements Clock {
  constructor(private current: number) {}

  now(): number {
    return this.current
  }

  /** Move forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms
  }

  set(ms: number): void {
    this.current = ms
  }
}
