/** Server time. Everything in Cairn that needs "now" asks this port, so tests can pin it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}
