import type { Clock } from '../../ports/clock.js'

/** The machine's wall clock. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now()
  }
}
