/**
 * Visitor threads and their secrets: a thread is between one visitor and a Twin. The first message
 * opens it, and its answer carries the thread's secret once (32 random bytes, base64url); the
 * service keeps only the secret's SHA-256. Continuing the thread, reading its replies and
 * subscribing to them all present the secret; without it a thread reads as no thread.
 */
import { timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CollectionSpec, Store, Write } from '../../ports/store.js'
import type { Entropy } from '../../ports/entropy.js'
import { sha256Hex } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import { notFound, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { typedCollection } from '../usecases/typed-collection.js'

export const WORLD_THREADS = 'world.threads'
export const VisitorThread = t.type({
  threadId: t.string,
  twinUserId: t.string,
  /** SHA-256 (hex) of the thread's secret; the secret itself is shown once and never stored. */
  secretSha256: t.string,
  createdAtMs: t.number,
}, 'VisitorThread')
export type VisitorThread = t.TypeOf<typeof VisitorThread>

export const worldThreads = typedCollection({ name: WORLD_THREADS }, VisitorThread)
export const worldThreadsCollection: CollectionSpec = worldThreads.spec

/** A new thread of `twinUserId` and the secret its first answer hands the visitor. */
export function newThread(entropy: Entropy, twinUserId: string, nowMs: number): { readonly thread: VisitorThread; readonly secret: string } {
  const secret = toBase64Url(entropy.bytes(32))
  return { thread: { threadId: `th_${toBase64Url(entropy.bytes(16))}`, twinUserId, secretSha256: sha256Hex(secret), createdAtMs: nowMs }, secret }
}

export const threadWrite = (thread: VisitorThread): Write => worldThreads.put(thread.threadId, thread, { kind: 'absent' })

const loadThread = async (store: Pick<Store, 'get'>, threadId: string): Promise<VisitorThread | undefined> => (await worldThreads.get(store, threadId))?.value

const opens = (thread: VisitorThread, secret: string): boolean => timingSafeEqual(Buffer.from(sha256Hex(secret), 'hex'), Buffer.from(thread.secretSha256, 'hex'))

/**
 * The thread `threadId` if `secret` opens it (and, when given, it is `twinUserId`'s). An unknown
 * thread, a wrong secret and another Twin's thread all answer the same 404: a stranger learns
 * nothing, not even that the thread exists.
 *
 * @example await openThread(deps.store, 'th_…', secret, twin.userId) // right(thread)
 */
export async function openThread(store: Pick<Store, 'get'>, threadId: string, secret: string | undefined, twinUserId?: string): Promise<Either<DomainError, VisitorThread>> {
  const thread = secret === undefined ? undefined : await loadThread(store, threadId)
  if (!thread || !opens(thread, secret!) || (twinUserId !== undefined && thread.twinUserId !== twinUserId)) {
    return E.left(notFound(`No thread ${quoteInput(threadId)} opens with this secret (the threadSecret of the thread's first answer)`))
  }
  return E.right(thread)
}
