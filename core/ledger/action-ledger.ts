/**
 * The public action ledger: one append-only stream of auth, record, wallet and identity-key
 * events. Events are appended in the same atomic commit as the change they record, so the feed
 * never shows a change that did not happen nor misses one that did. Actors are pseudonyms.
 */
import * as t from 'io-ts'
import type { CommitOutcome, Write } from '../../ports/store.js'
import { actorPseudonym, pseudonymSecret } from './actor-pseudonym.js'
import { kaiMomentAt } from '../time/kai.js'
import { typedStream } from '../usecases/typed-stream.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { toBase64Url } from '../encoding/base64url.js'

export const ACTION_LEDGER_STREAM = 'ledger.actions'

const ActionKindCodec = t.keyof({ auth: null, record: null, wallet: null, identity_key: null })
export type ActionKind = t.TypeOf<typeof ActionKindCodec>

/** What a use case says happened; the ledger adds identity, time and the pseudonym. */
export interface ActionInput {
  readonly kind: ActionKind
  /** Finer verb, e.g. `identity_created`, `key_bound`, `session_started`, `token_issued`. */
  readonly action: string
  /** Internal user id of who acted, or null for the service itself. Published only as a pseudonym. */
  readonly actorUserId: string | null
}

/** An event as stored in the stream and published in `ActionLedgerFeed`. */
const ActionEventCodec = t.readonly(t.type({ id: t.string, kind: ActionKindCodec, action: t.string, actor: t.string, createdAt: t.string, pulse: t.number }))
export type ActionEvent = t.TypeOf<typeof ActionEventCodec>

/** The stream itself: appends take an `ActionEvent`, reads decode one. */
export const actionLedger = typedStream(ACTION_LEDGER_STREAM, ActionEventCodec)

export { actorPseudonym, pseudonymSecret } from './actor-pseudonym.js'

export function toActionEvent(input: ActionInput, deps: Pick<CoreDeps, 'clock' | 'entropy'>, pseudonymKey: Uint8Array): ActionEvent {
  const now = deps.clock.now()
  // Members in RFC 8785 order, so the Store writes the event's digest natively (canonical-json.ts).
  return {
    action: input.action,
    actor: actorPseudonym(pseudonymKey, input.actorUserId),
    createdAt: new Date(now).toISOString(),
    id: `act_${toBase64Url(deps.entropy.bytes(16))}`,
    kind: input.kind,
    pulse: kaiMomentAt(now).pulse,
  }
}

/**
 * Commit `writes` together with the ledger events for `actions`, atomically. The events take the
 * ledger's next positions (`appendNext`), so committers never race on its head; a conflict in the
 * outcome is always one of the writes' own expectations.
 *
 * @example await commitWithActions(deps, [put], [{ kind: 'auth', action: 'session_started', actorUserId }])
 */
export async function commitWithActions(
  deps: Pick<CoreDeps, 'store' | 'clock' | 'entropy' | 'keys'>,
  writes: readonly Write[],
  actions: readonly ActionInput[],
): Promise<CommitOutcome> {
  return deps.store.commit([...writes, ...(await actionAppends(deps, actions))])
}

/** The appends recording `actions`, each at the ledger's next position. */
export async function actionAppends(deps: Pick<CoreDeps, 'clock' | 'entropy' | 'keys'>, actions: readonly ActionInput[]): Promise<Write[]> {
  // The secret pseudonymises a user; the service itself acts as `cairn` and needs none.
  const secret = actions.some((action) => action.actorUserId !== null) ? await pseudonymSecret(deps.keys) : new Uint8Array(0)
  return actions.map((action) => actionLedger.appendNext(toActionEvent(action, deps, secret)))
}

