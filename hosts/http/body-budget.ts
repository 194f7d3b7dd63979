/**
 * The body bytes held by all requests at once, bounded: each request leases bytes as they arrive
 * (or all of a declared Content-Length up front) and gives them back when its answer is ready.
 * A request that would pass the budget is refused (503, Retry-After) rather than read, so memory
 * stays bounded however many uploads arrive together (bench/README.md: uploads).
 */
export class BodyBudget {
  #held = 0

  /** `observer` hears every change (the `bodyBytesInFlight` metric). */
  constructor(readonly capacityBytes: number, private readonly observer?: { add(bytes: number): void; release(bytes: number): void }) {}

  /** Bytes leased now, across every request (for metrics). */
  get heldBytes(): number {
    return this.#held
  }

  /** A lease for one request; release it exactly once when the request is answered. */
  lease(): BodyLease {
    let leased = 0
    let released = false
    return {
      take: (bytes: number) => {
        if (released || this.#held + bytes > this.capacityBytes) return false
        this.#held += bytes
        leased += bytes
        this.observer?.add(bytes)
        return true
      },
      release: () => {
        if (released) return
        released = true
        this.#held -= leased
        this.observer?.release(leased)
        leased = 0
      },
    }
  }
}

export interface BodyLease {
  /** Takes `bytes` more from the budget; false (nothing taken) when that would pass it. */
  take(bytes: number): boolean
  release(): void
}

/** Seconds a refused client is asked to wait before retrying. */
export const BUDGET_RETRY_AFTER_SECONDS = 2
