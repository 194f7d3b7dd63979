/**
 * Commits of one process that append to the same stream take turns, for adapters whose
 * transactions collide when two of them append to a stream at once (MongoDB: both write the
 * stream's head, and one fails with a WriteConflict and runs again whole). Every commit appends
 * to the log (seals, records, movement batches), so without turns a large commit kept losing to
 * small ones; with them it waits for the appends ahead of it, as PostgreSQL's locks make it.
 * Commits on disjoint streams, and commits without appends, never wait for each other. Other
 * processes are not held: their collisions are still retried.
 */
export class StreamTurns {
  /** The last commit in line for each stream: a commit of that stream waits for it. */
  private readonly last = new Map<string, Promise<void>>()

  /**
   * Runs `commit` once the commits ahead of it on any of `streams` have finished. A commit takes its
   * place on all its streams at once (synchronously), so no two commits wait for each other.
   */
  async run<T>(streams: readonly string[], commit: () => Promise<T>): Promise<T> {
    if (streams.length === 0) return commit()
    let finish!: () => void
    const finished = new Promise<void>((resolve) => (finish = resolve))
    const ahead: Promise<void>[] = []
    for (const stream of new Set(streams)) {
      const prior = this.last.get(stream)
      if (prior !== undefined) ahead.push(prior)
      this.last.set(stream, finished)
    }
    try {
      await Promise.all(ahead)
      return await commit()
    } finally {
      finish()
      for (const stream of streams) if (this.last.get(stream) === finished) this.last.delete(stream)
    }
  }
}
