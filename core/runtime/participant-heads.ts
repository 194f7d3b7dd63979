/**
 * Participant heads: the compare-and-swap registers staged executions move. A participant is
 * anything an application's plans write to (an artifact, an account, a document), named by a
 * `RuntimeId` within its application; its head starts at a genesis digest of its own and each move
 * chains the next head from the prior one (`chainHead`), so heads never repeat and a plan built
 * against an old head can never apply.
 *
 * Heads live in their own collection (`runtime_participant_heads`), one document per participant
 * holding the current head, the head before it, the artifact it now stands for and the execution
 * that moved it. `commitParticipantHeads` is the one write path: it reads every head, requires
 * each to equal the expected one, and commits the moves together with the caller's own writes in
 * ONE `Store.commit` whose expectations cover every head (version, or absent for a genesis head).
 * The commit applies whole or not at all, on every adapter. Other write paths (domain additions)
 * join by passing their writes as `withWrites`.
 */
import * as t from 'io-ts'
import { chainHead, entryDigestOf } from '../digest/chain.js'
import { sha256OfJson } from '../digest/sha256.js'
import type { Write } from '../../ports/store.js'
import { nullableString, typedCollection, unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { participantHeadsSpec } from './runtime-collections.js'

/**
 * The stored state of one participant (absent before its first move). `sequence`: how many moves
 * reached this head (1 after the first); `artifactSha256`: the sealed artifact the participant
 * stands for since this move; `movedBy`: the execution (or other write path) that made the move.
 */
const ParticipantHeadRecordCodec = t.readonly(t.type({
  applicationId: t.string, participantId: t.string, head: t.string, priorHead: t.string, sequence: t.number, artifactSha256: nullableString, movedBy: t.string, movedAtMs: t.number,
}))
export type ParticipantHeadRecord = t.TypeOf<typeof ParticipantHeadRecordCodec>

export const participantHeads = typedCollection(participantHeadsSpec, ParticipantHeadRecordCodec)

/** A participant's head as read now: the record (null at genesis) and its document version. */
export interface ParticipantHeadState {
  readonly participantId: string
  readonly head: string
  readonly version: number | null
  readonly record: ParticipantHeadRecord | null
}

/** One move: from `expectedHead` to `nextHead`. */
export interface ParticipantMove {
  readonly participantId: string
  readonly expectedHead: string
  readonly nextHead: string
  readonly artifactSha256: string | null
}

/** The head of a participant that never moved. @example genesisParticipantHead('com.example.notes', 'doc-1') */
export function genesisParticipantHead(applicationId: string, participantId: string): string {
  return sha256OfJson({ schema: 'cairn.v124.participant_genesis', applicationId, participantId })
}

/** The head after appending `entry` at `priorHead` (the stream rule of core/digest/chain.ts). */
export function nextParticipantHead(priorHead: string, entry: unknown): string {
  return chainHead(priorHead, entryDigestOf(entry))
}

/** The document key of one participant. */
export const participantKey = (applicationId: string, participantId: string): string =>
  sha256OfJson({ schema: 'cairn.v124.participant_key', applicationId, participantId })

/** Every named participant's head as it is now. */
export async function loadParticipantHeads(deps: Pick<CoreDeps, 'store'>, applicationId: string, participantIds: readonly string[]): Promise<ParticipantHeadState[]> {
  return Promise.all(participantIds.map(async (participantId) => {
    const doc = await participantHeads.get(deps.store, participantKey(applicationId, participantId))
    if (!doc) return { participantId, head: genesisParticipantHead(applicationId, participantId), version: null, record: null }
    return { participantId, head: doc.value.head, version: doc.version, record: doc.value }
  }))
}

/** The first move whose expected head is not the current one, or undefined when all match. */
export function firstHeadMismatch(states: readonly ParticipantHeadState[], moves: readonly ParticipantMove[]): ParticipantMove | undefined {
  const byId = new Map(states.map((state) => [state.participantId, state]))
  return moves.find((move) => byId.get(move.participantId)?.head !== move.expectedHead)
}

/**
 * The writes of the moves (pure): one put per participant, expecting the version that was read
 * (or absence at genesis), so the commit fails if any head moved since.
 */
export function participantHeadWrites(applicationId: string, states: readonly ParticipantHeadState[], moves: readonly ParticipantMove[], movedBy: string, nowMs: number): Write[] {
  const byId = new Map(states.map((state) => [state.participantId, state]))
  return moves.map((move) => {
    const state = byId.get(move.participantId)!
    const record: ParticipantHeadRecord = {
      applicationId, participantId: move.participantId, head: move.nextHead, priorHead: move.expectedHead,
      sequence: (state.record?.sequence ?? 0) + 1, artifactSha256: move.artifactSha256, movedBy, movedAtMs: nowMs,
    }
    return participantHeads.put(participantKey(applicationId, move.participantId), record, unchangedSince(state.version))
  })
}

export type ParticipantCommitOutcome =
  | { readonly ok: true }
  /** A head is not the expected one (read before the commit, or moved during it). Nothing was written. */
  | { readonly ok: false; readonly reason: 'head-mismatch'; readonly participantId: string }
  /** One of `withWrites` failed its expectation (index into `withWrites`). Nothing was written. */
  | { readonly ok: false; readonly reason: 'write-conflict'; readonly writeIndex: number }

/**
 * Moves every participant's head from its expected head to the next one, together with
 * `withWrites`, in ONE commit whose expectations are all the heads; or writes nothing. `states`
 * are heads the caller already read (they are re-checked by the commit's expectations).
 *
 * @example await commitParticipantHeads(deps, 'com.example.notes', [{ participantId: 'doc-1', expectedHead, nextHead, artifactSha256 }], 'exe_…', [executionRecordWrite])
 */
export async function commitParticipantHeads(
  deps: Pick<CoreDeps, 'store' | 'clock'>, applicationId: string, moves: readonly ParticipantMove[], movedBy: string, withWrites: readonly Write[] = [],
  options: { readonly states?: readonly ParticipantHeadState[] } = {},
): Promise<ParticipantCommitOutcome> {
  const states = options.states ?? (await loadParticipantHeads(deps, applicationId, moves.map((move) => move.participantId)))
  const stale = firstHeadMismatch(states, moves)
  if (stale) return { ok: false, reason: 'head-mismatch', participantId: stale.participantId }
  const outcome = await deps.store.commit([...withWrites, ...participantHeadWrites(applicationId, states, moves, movedBy, deps.clock.now())])
  if (outcome.ok) return { ok: true }
  const index = outcome.conflict.writeIndex
  if (index < withWrites.length) return { ok: false, reason: 'write-conflict', writeIndex: index }
  return { ok: false, reason: 'head-mismatch', participantId: moves[index - withWrites.length]!.participantId }
}
