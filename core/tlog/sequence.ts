/**
 * Sequencing: a record and the log leaf that proves it are committed together. A leaf is appended
 * to the Store stream `tlog.leaves` in the same atomic commit as the record's own writes, so no
 * record exists without its leaf and no leaf without its record. The leaf's index is its stream
 * sequence minus one; the integrator (integrate.ts) later folds it into tiles and a checkpoint.
 */
import type { CommitOutcome, Json, Store, Write } from '../../ports/store.js'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { ACTION_LEDGER_STREAM, pseudonymSecret, toActionEvent, type ActionInput } from '../ledger/action-ledger.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { leafEntryBytes, type LogLeaf } from './leaf.js'

export { leafEntryBytes, type LogLeaf } from './leaf.js'

export const LOG_LEAF_STREAM = 'tlog.leaves'

/** Appends of `values` to `stream`, chained from `head`: each expects the head the previous produces. */
export function chainedAppends(stream: string, head: string | null, values: readonly Json[]): Write[] {
  const appends: Write[] = []
  let expectHead = head
  for (const [i, value] of values.entries()) {
    appends.push({ kind: 'append', stream, value, expectHead })
    // The head after the last value is the Store's to compute: two SHA-256 of canonical JSON saved per stream.
    if (i < values.length - 1) expectHead = chainHead(expectHead, entryDigestOf(value))
  }
  return appends
}

export interface SequencedCommit {
  readonly outcome: CommitOutcome
  /** The log index of each leaf, in order (empty when the commit wrote nothing). */
  readonly leafIndexes: readonly number[]
}

/**
 * Commit `writes` with `leaves` appended to the log (and, optionally, action-ledger events), all
 * or nothing. Only a lost race on a stream head is retried (up to 64 times: every lost race means
 * another commit won, so concurrent writers all finish), with the head re-read; the writes'
 * own expectations are unchanged, so a real conflict still surfaces as `ok: false`.
 *
 * @example const { outcome, leafIndexes } = await commitWithLeaves(deps, [put], [{ kind: 'public_proof', id, sha256 }])
 */
export async function commitWithLeaves(
  deps: Pick<CoreDeps, 'store' | 'clock' | 'entropy' | 'keys'>,
  writes: readonly Write[],
  leaves: readonly LogLeaf[],
  options: { readonly actions?: readonly ActionInput[]; readonly maxAttempts?: number } = {},
): Promise<SequencedCommit> {
  for (const leaf of leaves) leafEntryBytes(leaf) // refuse an oversized leaf before anything is written
  const streams: { stream: string; values: Json[] }[] = [{ stream: LOG_LEAF_STREAM, values: leaves as unknown as Json[] }]
  if (options.actions?.length) {
    // Actors are pseudonyms under the key-derived secret (core/ledger/actor-pseudonym.ts).
    // Needed only to pseudonymise a user; the service itself acts as `cairn` (as commitWithActions does).
    const secret = options.actions.some((action) => action.actorUserId !== null) ? await pseudonymSecret(deps.keys) : new Uint8Array(0)
    streams.push({ stream: ACTION_LEDGER_STREAM, values: options.actions.map((action) => toActionEvent(action, deps, secret) as unknown as Json) })
  }
  const maxAttempts = options.maxAttempts ?? 64
  for (let attempt = 1; ; attempt++) {
    const appends = await appendsAtHeads(deps.store, streams)
    const outcome = await deps.store.commit([...writes, ...appends])
    const lostStreamRace = !outcome.ok && outcome.conflict._tag === 'HeadMismatch' && outcome.conflict.writeIndex >= writes.length
    if (!lostStreamRace || attempt >= maxAttempts) {
      const leafIndexes = outcome.ok ? outcome.appended.filter((entry) => entry.stream === LOG_LEAF_STREAM).map((entry) => entry.sequence - 1) : []
      return { outcome, leafIndexes }
    }
  }
}

async function appendsAtHeads(store: Store, streams: readonly { stream: string; values: readonly Json[] }[]): Promise<Write[]> {
  const appends: Write[] = []
  for (const { stream, values } of streams) {
    if (values.length === 0) continue
    const head = (await store.streamHead(stream))?.head ?? null
    appends.push(...chainedAppends(stream, head, values))
  }
  return appends
}
