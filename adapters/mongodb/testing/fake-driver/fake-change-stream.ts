// A change stream over one namespace (FakeChangeStream).
import { MongoAPIError, MongoServerError, type Timestamp } from 'mongodb'
import type { Doc } from './documents.js'
import type { FakeMongoServer } from './fake-server.js'
import { matches } from './query.js'

/** The server's answer to a resume token it no longer has (or never had) in its oplog. */
export function changeStreamHistoryLost(): MongoServerError {
  return new MongoServerError({
    message: 'Executor error during getMore :: caused by :: Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
    code: 286,
    codeName: 'ChangeStreamHistoryLost',
  })
}

/** A resume token naming a position in the change log: after `position` events. */
export function resumeTokenAt(position: number): { _data: string } {
  return { _data: position.toString(16).padStart(16, '0') }
}

/**
 * A change stream over one namespace: `$match` stages, start/resume positions, next/tryNext/close,
 * and `resumeToken` as the driver keeps it: the last event's `_id`, or the post-batch token (the
 * end of the log) once every event up to it was returned. Resuming from a token the log does not
 * hold fails with ChangeStreamHistoryLost at the first read, as on a server.
 */
export class FakeChangeStream {
  private position: number
  private waiting: { resolve: (event: Doc) => void; reject: (error: unknown) => void } | undefined
  private failure: unknown
  closed = false
  resumeToken: { _data: string } | undefined

  constructor(
    private readonly server: FakeMongoServer,
    private readonly target: string,
    private readonly pipeline: Doc[],
    options: Doc,
    /** The client that opened it: closing the client ends it. */
    readonly client?: unknown,
  ) {
    const resumeAfter = options['resumeAfter'] as { _data: string } | undefined
    const startAt = options['startAtOperationTime'] as Timestamp | undefined
    if (resumeAfter !== undefined) {
      const position = /^[0-9a-f]{16}$/.test(String(resumeAfter._data)) ? Number.parseInt(resumeAfter._data, 16) : -1
      const known = position >= server.changeLogStart && position <= server.changeLog.length
      this.position = known ? position : server.changeLog.length
      if (!known) this.failure = changeStreamHistoryLost()
      this.resumeToken = resumeAfter
    } else if (startAt !== undefined) {
      const index = server.changeLog.findIndex((change) => change.time >= startAt.i)
      this.position = index === -1 ? server.changeLog.length : index
      if (this.position < server.changeLogStart) this.failure = changeStreamHistoryLost()
    } else {
      this.position = server.changeLog.length
    }
    server.changeStreams.add(this)
  }

  async tryNext(): Promise<Doc | null> {
    if (this.closed) throw new MongoAPIError('ChangeStream is closed')
    if (this.failure !== undefined) throw this.failure
    return this.take() ?? null
  }

  async next(): Promise<Doc> {
    if (this.closed) throw new MongoAPIError('ChangeStream is closed')
    if (this.failure !== undefined) throw this.failure
    const ready = this.take()
    if (ready !== undefined) return ready
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
    })
  }

  async close(): Promise<void> {
    this.end(new MongoAPIError('ChangeStream is closed'))
  }

  /** @internal Stop now: a pending `next` fails with `reason` (the client closing under it, too). */
  end(reason: unknown): void {
    this.closed = true
    this.server.changeStreams.delete(this)
    this.waiting?.reject(reason)
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
    const found = this.nextMatch(this.position)
    if (found === undefined) {
      // Caught up: the post-batch resume token is the end of the log, past events of no interest.
      this.position = this.server.changeLog.length
      this.resumeToken = resumeTokenAt(this.position)
      return undefined
    }
    this.position = found + 1
    const event = this.server.changeLog[found]!.event
    // The last event of a batch: the server scanned to the end, so the token is the post-batch one.
    this.resumeToken = this.nextMatch(this.position) === undefined ? resumeTokenAt(this.server.changeLog.length) : (event['_id'] as { _data: string })
    return event
  }

  private nextMatch(from: number): number | undefined {
    for (let index = from; index < this.server.changeLog.length; index += 1) {
      const change = this.server.changeLog[index]!
      if (change.namespace !== this.target) continue
      if (this.pipeline.every((stage) => !('$match' in stage) || matches(change.event, stage['$match'] as Doc))) return index
    }
    return undefined
  }
}
