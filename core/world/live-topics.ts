/**
 * What each live topic carries and who may open it, for any host that streams World updates
 * (hosts/ws): `public` (Twins becoming active) and `twin:<username>` (metadata of each answered
 * message) are open to anyone; `thread:<threadId>` carries the Twin's replies and opens only with
 * the thread's secret. A resume (`after` a cursor) replays what the topic itself carries, so a
 * public replay never holds reply text either.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { twinNamed } from './profile.js'
import { openThread } from './threads.js'
import { threadReplyOf, threadTopic, twinActivityOf, twinTopic, updateCursorOf, worldMessages, WORLD_PUBLIC_TOPIC, type VisitorMessage } from './world-records.js'

/** Stored updates a resume replays at most (the newest, then sent oldest first). */
export const LIVE_RESUME_WINDOW = 200

export interface LiveTopic {
  /** The EventBus topic whose messages the subscriber receives as they are published. */
  readonly busTopic: string
  /**
   * The stored updates after `cursor` (the newest `window` at most), oldest first, in the form the
   * topic carries them live; `truncated` when more than `window` followed the cursor.
   */
  replayAfter(cursor: string, window?: number): Promise<StoredUpdates>
}

export interface StoredUpdates {
  readonly updates: readonly Record<string, unknown>[]
  readonly truncated: boolean
}

export const LIVE_TOPIC_FORMS = '"public", "twin:<username>" or "thread:<threadId>" (with the thread\'s secret)'

/**
 * Opens `topic` for a subscriber, or says why not.
 *
 * @example await openLiveTopic(deps, 'thread:th_…', threadSecret) // right({ busTopic, replayAfter })
 */
export async function openLiveTopic(deps: Pick<CoreDeps, 'store'>, topic: string, secret: string | undefined): Promise<Either<DomainError, LiveTopic>> {
  if (topic === 'public') return E.right({ busTopic: WORLD_PUBLIC_TOPIC, replayAfter: async () => ({ updates: [], truncated: false }) })
  const [kind, name] = [topic.slice(0, topic.indexOf(':')), topic.slice(topic.indexOf(':') + 1)]
  if (kind === 'twin' && name !== '') {
    const twin = await twinNamed(deps, name)
    if (E.isLeft(twin)) return twin
    const twinUserId = twin.right.userId
    return E.right({
      busTopic: twinTopic(twin.right.username),
      replayAfter: (cursor, window = LIVE_RESUME_WINDOW) => storedAfter(deps, 'by_twin', twinUserId, cursor, window, twinActivityOf),
    })
  }
  if (kind === 'thread' && name !== '') {
    const thread = await openThread(deps.store, name, secret)
    if (E.isLeft(thread)) return thread
    return E.right({ busTopic: threadTopic(name), replayAfter: (cursor, window = LIVE_RESUME_WINDOW) => storedAfter(deps, 'by_thread', name, cursor, window, threadReplyOf) })
  }
  return E.left(invalidInput(`topic must be ${LIVE_TOPIC_FORMS}`))
}

async function storedAfter(
  deps: Pick<CoreDeps, 'store'>, index: 'by_twin' | 'by_thread', key: string, cursor: string, window: number, shape: (message: VisitorMessage) => Record<string, unknown>,
): Promise<StoredUpdates> {
  const page = await deps.store.query(worldMessages.name, { index, equals: [key], order: 'desc', limit: window })
  const newer = page.items.map(worldMessages.decode).filter((message) => updateCursorOf(message) > cursor)
  return { updates: newer.reverse().map(shape), truncated: newer.length === page.items.length && page.nextCursor !== null }
}
