/**
 * World: Live Twin profiles, visitor messages and booking requests (rate-limited, answered by the
 * TextGenerator, also streamed as server-sent events) and the public world snapshot (docs/world.md).
 */
import type { CollectionSpec } from '../../ports/store.js'
import type { UseCaseRegistry } from '../usecases/use-case.js'
import { getWorldProfile } from './profile.js'
import { getWorldPublic } from './public-world.js'
import { messageWorldProfile } from './visitor-message.js'
import { streamWorldProfile } from './stream-visit.js'
import { worldThreadsCollection } from './threads.js'
import { worldMessagesCollection } from './world-records.js'

/** @example const useCases = { ...worldUseCases } */
export const worldUseCases = { getWorldProfile, messageWorldProfile, streamWorldProfile, getWorldPublic } as const satisfies UseCaseRegistry
export const worldCollections: readonly CollectionSpec[] = [worldMessagesCollection, worldThreadsCollection]
export { threadReplyOf, threadTopic, twinActivityOf, twinTopic, updateCursorOf, WORLD_PUBLIC_TOPIC, WORLD_MESSAGES, type VisitorMessage } from './world-records.js'
export { LIVE_RESUME_WINDOW, LIVE_TOPIC_FORMS, openLiveTopic, type LiveTopic } from './live-topics.js'
export { WORLD_THREADS } from './threads.js'
export { twinNamed } from './profile.js'
