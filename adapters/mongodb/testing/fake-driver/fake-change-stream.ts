// A change stream over one namespace (FakeChangeStream).
import { MongoAPIError, type Timestamp } from 'mongodb'
import type { Doc } from './documents.js'
import type { FakeMongoServer } from './fake-server.js'
import { matches } from './query.js'

/** A change stream over one namespace: `$match` stages, start/resume positions, next/tryNext/close. */
export class FakeChangeStream {
  private position: number
  private waiting: { resolve: (event: Doc) => void; reject: (error: unknown) => void } | undefined
  closed = false

  constructor(
    private readonly server: FakeMongoServer,
    private readonly target: string,
    private readonly pipeline: Doc[],
    options: Doc,
  ) {
    const resumeAfter = options['resumeAfter'] as { _data: string } | undefined
    const startAt = options['startAtOperationTime'] as Timestamp | undefined
    if (resumeAfter !== undefined) {
      this.position = server.changeLog.findIndex((change) => (change.event['_id'] as { _data: string })._data === resumeAfter._data) + 1
    } else if (startAt !== undefined) {
      const index = server.changeLog.findIndex((change) => change.time >= startAt.i)
      this.position = index === -1 ? server.changeLog.length : index
    } else {
      this.position = server.changeLog.length
    }
    server.changeStreams.add(this)
  }

  async tryNext(): Promise<Doc | null> {
    if (this.closed) throw new MongoAPIError('ChangeStream is closed')
    return this.take() ?? null
  }

  async next(): Promise<Doc> {
    if (this.closed) throw new MongoAPIError('ChangeStream is closed')
    const ready = this.take()
    if (ready !== undefined) return ready
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.server.changeStreams.delete(this)
    this.waiting?.reject(new MongoAPIError('ChangeStream is closed'))
    this.waiting = undefined
  }

  /** @internal New changes were committed. */
  wake(): void {
    if (this.waiting === undefined) return
    const ready = this.take()
    if (ready === undefined) return
    const { resolve } = this.waiting
    this.waiting = undefined
    resolve(ready)
  }

  private take(): Doc | undefined {
    while (this.position < this.server.changeLog.length) {
      const change = this.server.changeLog[this.position]!
      this.position += 1
      if (change.namespace !== this.target) continue
      const passes = this.pipeline.every((stage) => !('$match' in stage) || matches(change.event, stage['$match'] as Doc))
      if (passes) return change.event
    }
    return undefined
  }
}
