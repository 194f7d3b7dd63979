/**
 * Load, decide, commit — with the ledger. A use case answers a `Decision`: the writes and action
 * events to commit atomically and the answer to give once they are committed. A lost race (a
 * document changed since it was read) runs the whole decision again on fresh reads, so the
 * loser sees what the winner did (a second exchange of one code finds it used).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Write } from '../../ports/store.js'
import { conflict, type DomainError } from '../errors/domain-error.js'
import { commitWithActions, type ActionInput } from '../ledger/action-ledger.js'
import type { CoreDeps } from '../usecases/use-case.js'

export interface Decision<A> {
  readonly writes: readonly Write[]
  readonly actions: readonly ActionInput[]
  /** Given only if the writes commit. A refusal may still write (a reused code revokes its grant). */
  readonly answer: Either<DomainError, A>
}

/** A decision that writes nothing. @example nothingToWrite(E.left(invalidInput('…'))) */
export function nothingToWrite<A>(answer: Either<DomainError, A>): Decision<A> {
  return { writes: [], actions: [], answer }
}

/** An auth event of the action ledger. @example authEvent('token_issued', userId) */
export function authEvent(action: string, actorUserId: string | null): ActionInput {
  return { kind: 'auth', action, actorUserId }
}

/**
 * @example const answer = await commitDecision(deps, () => decideExchange(form, deps))
 */
export async function commitDecision<A>(deps: CoreDeps, decide: () => Promise<Decision<A>>, attempts = 4): Promise<Either<DomainError, A>> {
  for (let attempt = 1; ; attempt++) {
    const decision = await decide()
    if (decision.writes.length === 0 && decision.actions.length === 0) return decision.answer
    const outcome = await commitWithActions(deps, decision.writes, decision.actions)
    if (outcome.ok) return decision.answer
    if (attempt >= attempts) return E.left(conflict('Another request changed the same authorization at the same time; try again'))
  }
}
