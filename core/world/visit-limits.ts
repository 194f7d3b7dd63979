/**
 * The rate limits of visitor messages, counted in the Store across hosts (fixed one-minute
 * windows), in the order a visit meets them: per client address (a client rotating visitor ids
 * still has one address; IPv6 by /64), per visitor id, then per Twin — where new threads may use
 * only their share, so a flood of strangers never crowds out visitors already in a conversation.
 * A limit that trips stops the count there: a refused sender uses none of the Twin's inbox, and a
 * thread is opened by its secret before the inbox is counted, so bogus continuations cannot eat
 * the share kept for real ones.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { DeploymentConfig } from '../config/deployment-config.js'
import type { DomainError } from '../errors/domain-error.js'
import { addressLimitKey } from '../rate-limit/client-address.js'
import { consumeRateLimit } from '../rate-limit/fixed-window.js'
import type { CoreDeps } from '../usecases/use-case.js'

export interface WorldLimits {
  readonly addressPerMinute: number
  readonly visitorPerMinute: number
  readonly twinPerMinute: number
  readonly newThreadsPerMinute: number
}

/** @default 20 messages a minute per address, 10 per visitor, 60 per Twin of which 40 may open new threads (deployment `world`). */
export function worldLimits(config: DeploymentConfig['world']): WorldLimits {
  const twinPerMinute = config?.twinPerMinute ?? 60
  return {
    addressPerMinute: config?.addressPerMinute ?? 20,
    visitorPerMinute: config?.visitorPerMinute ?? 10,
    twinPerMinute,
    newThreadsPerMinute: Math.min(twinPerMinute, config?.newThreadsPerMinute ?? Math.floor((twinPerMinute * 2) / 3)),
  }
}

const MINUTE = 60_000
type Check = readonly [key: string, limit: number, what: string]

async function countAll(deps: Pick<CoreDeps, 'store' | 'clock'>, checks: readonly Check[]): Promise<Either<DomainError, void>> {
  for (const [key, limit, what] of checks) {
    const counted = await consumeRateLimit(deps, key, { limit, windowMs: MINUTE }, what)
    if (E.isLeft(counted)) return counted
  }
  return E.right(undefined)
}

/**
 * Counts the sender: its network address (absent when the host does not know it, as in an
 * in-process call), then its visitor id. The first limit that trips answers 429 naming it.
 */
export function countSender(deps: Pick<CoreDeps, 'store' | 'clock' | 'config'>, sender: { readonly clientAddress: string | undefined; readonly visitorId: string }): Promise<Either<DomainError, void>> {
  const limits = worldLimits(deps.config.deployment.world)
  const byAddress: Check[] = sender.clientAddress === undefined ? [] : [[`world:address:${addressLimitKey(sender.clientAddress)}`, limits.addressPerMinute, 'messages from this network address']]
  return countAll(deps, [...byAddress, [`world:visitor:${sender.visitorId}`, limits.visitorPerMinute, 'messages from this visitor']])
}

/** Counts the message against the Twin's inbox; one that opens a thread first against the new threads' share. */
export function countTwinInbox(deps: Pick<CoreDeps, 'store' | 'clock' | 'config'>, twin: { readonly userId: string; readonly username: string }, opensThread: boolean): Promise<Either<DomainError, void>> {
  const limits = worldLimits(deps.config.deployment.world)
  const newThreads: Check[] = opensThread ? [[`world:twin-new:${twin.userId}`, limits.newThreadsPerMinute, `new conversations with ${twin.username}'s Twin (the rest of its inbox is kept for existing threads)`]] : []
  return countAll(deps, [...newThreads, [`world:twin:${twin.userId}`, limits.twinPerMinute, `messages to ${twin.username}'s Twin`]])
}
