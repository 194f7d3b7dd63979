/**
 * Sequencing: a record and the log leaf that proves it are committed together. A leaf is appended
 * to the Store stream `tlog.leaves` in the same atomic commit as the record's own writes, so no
 * record exists without its leaf and no leaf without its record. The leaf's index is its stream
 * sequence minus one; the integrator (integrate.ts) later folds it into tiles and a checkpoint.
 */
import type { CommitOutcome, StreamEntry, Write } from '../../ports/store.js'
import { actionAppends, type ActionInput } from '../ledger/action-ledger.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { leafEntryBytes, type LogLeaf } from './leaf.js'

export { leafEntryBytes, type LogLeaf } from './leaf.js'

export const LOG_LEAF_STREAM = 'tlog.leaves'

export interface SequencedCommit {
  readonly outcome: CommitOutcome
  /** The log index of each leaf, in order (empty when the commit wrote nothing). */
  readonly leafIndexes: readonly number[]
}

/** The write that appends `leaf` at the log's next position. */
export const leafAppend = (leaf: LogLeaf): Write => ({ kind: 'appendNext', stream: LOG_LEAF_STREAM, value: leaf })

/** The log entries among what a commit `appended`, in the order its leaves were written (a leaf's index is its sequence − 1). */
export const logEntriesOf = (appended: readonly StreamEntry[]): StreamEntry[] => appended.filter((entry) => entry.stream === LOG_LEAF_STREAM)

/**
 * Commit `writes` with `leaves` appended to the log (and, optionally, action-ledger events), all
 * or nothing. The appends take the next positions (`appendNext`): the Store chains them onto the
 * heads it holds at commit time, so concurrent sealers never lose a race on the log's head and
 * nothing is retried; a conflict in the outcome is always one of the writes' own expectations.
 *
 * @example const { outcome, leafIndexes } = await commitWithLeaves(deps, [put], [{ kind: 'public_proof', id, sha256 }])
 */
export async function commitWithLeaves(
  deps: Pick<CoreDeps, 'store' | 'clock' | 'entropy' | 'keys'>,
  writes: readonly Write[],
  leaves: readonly LogLeaf[],
  options: { readonly actions?: readonly ActionInput[] } = {},
): Promise<SequencedCommit> {
  for (const leaf of leaves) leafEntryBytes(leaf) // refuse an oversized leaf before anything is written
  const appends: Write[] = leaves.map(leafAppend)
  if (options.actions?.length) appends.push(...(await actionAppends(deps, options.actions)))
  const outcome = await deps.store.commit([...writes, ...appends])
  const leafIndexes = outcome.ok ? logEntriesOf(outcome.appended).map((entry) => entry.sequence - 1) : []
  return { outcome, leafIndexes }
}
