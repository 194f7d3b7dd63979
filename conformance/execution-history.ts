/**
 * A small history checker for staged executions over participant heads, in the spirit of
 * Jepsen/Knossos for compare-and-swap registers. Each operation is one execute call as a client
 * saw it (invoked, returned, committed or not) with the heads it expected and proposed; the final
 * state is every participant's head and how many moves reached it. The checker requires:
 *
 * 1. all or none: no operation that did not commit left any of its proposed heads in a chain, and
 *    every committed one moved every participant it names;
 * 2. no gaps, no forks: per participant, the committed moves chain from the genesis head, each head
 *    followed by at most one move, ending exactly at the final head after `sequence` moves;
 * 3. serializable and linearizable: the per-participant chain orders plus real time (an operation
 *    that returned before another was invoked comes first) form an acyclic graph; replaying its
 *    topological order one operation at a time against a model of the heads succeeds and ends in
 *    the final state.
 */

/** One execute call as a client observed it. */
export interface ExecutionHistoryOperation {
  readonly id: string
  /** Logical times from one counter shared by every client. */
  readonly invokedAt: number
  readonly returnedAt: number
  /** `unknown`: the call failed without an answer (it may or may not have committed). */
  readonly outcome: 'committed' | 'not-committed' | 'unknown'
  readonly expected: Readonly<Record<string, string>>
  readonly proposed: Readonly<Record<string, string>>
}

export interface ParticipantFinalState {
  readonly head: string
  /** Moves that reached `head` (0: the participant never moved). */
  readonly sequence: number
}

export interface HistoryVerdict {
  readonly ok: boolean
  readonly errors: readonly string[]
  /** A serial order of the committed operations (ids) that explains the final state. */
  readonly order: readonly string[]
}

/**
 * @example checkExecutionHistory({ operations, finalHeads, genesisHead: (p) => genesisParticipantHead(APP, p) })
 */
export function checkExecutionHistory(input: {
  readonly operations: readonly ExecutionHistoryOperation[]
  readonly finalHeads: ReadonlyMap<string, ParticipantFinalState>
  readonly genesisHead: (participantId: string) => string
}): HistoryVerdict {
  const errors: string[] = []
  const movedBy = new Map<string, Map<string, ExecutionHistoryOperation>>() // participant → proposed head → op
  for (const op of input.operations) {
    for (const [participant, proposed] of Object.entries(op.proposed)) {
      const map = movedBy.get(participant) ?? new Map<string, ExecutionHistoryOperation>()
      map.set(proposed, op)
      movedBy.set(participant, map)
    }
  }

  // 2. Walk every participant's chain back from its final head to genesis.
  const inChain = new Map<string, Set<string>>() // participant → op ids whose move is in the chain
  const chainOrder = new Map<string, string[]>() // participant → op ids in chain order
  for (const [participant, final] of input.finalHeads) {
    const genesis = input.genesisHead(participant)
    const ops: string[] = []
    let head = final.head
    const seen = new Set<string>()
    while (head !== genesis) {
      const op = movedBy.get(participant)?.get(head)
      if (!op) {
        errors.push(`${participant}: head ${head.slice(0, 12)} was reached by no operation of the history (a gap)`)
        break
      }
      if (seen.has(op.id)) {
        errors.push(`${participant}: ${op.id} appears twice in the chain`)
        break
      }
      seen.add(op.id)
      ops.unshift(op.id)
      head = op.expected[participant]!
    }
    if (ops.length !== final.sequence) errors.push(`${participant}: ${final.sequence} moves are recorded but the chain from genesis has ${ops.length}`)
    inChain.set(participant, seen)
    chainOrder.set(participant, ops)
  }

  // 1. All or none, and agreement with what clients were told.
  const committed = new Set<string>()
  for (const op of input.operations) {
    const participants = Object.keys(op.proposed)
    const present = participants.filter((p) => inChain.get(p)?.has(op.id))
    if (present.length > 0 && present.length < participants.length) errors.push(`${op.id}: moved ${present.join(', ')} but not ${participants.filter((p) => !present.includes(p)).join(', ')} (half written)`)
    if (op.outcome === 'committed' && present.length !== participants.length) errors.push(`${op.id}: answered committed but its heads are not all in the chains`)
    if (op.outcome === 'not-committed' && present.length > 0) errors.push(`${op.id}: answered not committed but moved ${present.join(', ')}`)
    if (present.length === participants.length && participants.length > 0) committed.add(op.id)
  }

  // 3. Precedence graph: chain order per participant plus real time; topological order; replay.
  const byId = new Map(input.operations.map((op) => [op.id, op]))
  const edges = new Map<string, Set<string>>([...committed].map((id) => [id, new Set<string>()]))
  for (const ops of chainOrder.values()) for (let i = 1; i < ops.length; i++) edges.get(ops[i - 1]!)?.add(ops[i]!)
  const ids = [...committed].sort()
  for (const a of ids) for (const b of ids) if (a !== b && byId.get(a)!.returnedAt < byId.get(b)!.invokedAt) edges.get(a)!.add(b)
  const indegree = new Map(ids.map((id) => [id, 0]))
  for (const targets of edges.values()) for (const target of targets) indegree.set(target, (indegree.get(target) ?? 0) + 1)
  const ready = ids.filter((id) => indegree.get(id) === 0)
  const order: string[] = []
  while (ready.length > 0) {
    ready.sort((x, y) => byId.get(x)!.invokedAt - byId.get(y)!.invokedAt || x.localeCompare(y))
    const id = ready.shift()!
    order.push(id)
    for (const target of edges.get(id)!) {
      indegree.set(target, indegree.get(target)! - 1)
      if (indegree.get(target) === 0) ready.push(target)
    }
  }
  if (order.length !== ids.length) errors.push(`the committed operations admit no serial order consistent with the chains and real time (${ids.length - order.length} in a cycle)`)
  const model = new Map<string, string>()
  for (const id of order) {
    const op = byId.get(id)!
    for (const [participant, expected] of Object.entries(op.expected)) {
      const current = model.get(participant) ?? input.genesisHead(participant)
      if (current !== expected) errors.push(`replaying ${id}: ${participant} is at ${current.slice(0, 12)}, not the expected ${expected.slice(0, 12)}`)
    }
    for (const [participant, proposed] of Object.entries(op.proposed)) model.set(participant, proposed)
  }
  for (const [participant, final] of input.finalHeads) {
    const modelled = model.get(participant) ?? input.genesisHead(participant)
    if (modelled !== final.head) errors.push(`${participant}: the serial replay ends at ${modelled.slice(0, 12)}, the store at ${final.head.slice(0, 12)}`)
  }
  return { ok: errors.length === 0, errors, order }
}

/**
 * The domain check: the plans' domain lists the additions of the committed operations and of no
 * other, each operation's additions together (appendIds `<executionId>.<index>`, one per
 * participant), and in an order that is itself a serial history: replaying the operations in
 * domain order against a model of the heads (from genesis) meets every expected head and ends in
 * the final state.
 *
 * @example checkDomainOrder({ operations, appendIds, finalHeads, genesisHead })
 */
export function checkDomainOrder(input: {
  readonly operations: readonly ExecutionHistoryOperation[]
  readonly appendIds: readonly string[]
  readonly finalHeads: ReadonlyMap<string, ParticipantFinalState>
  readonly genesisHead: (participantId: string) => string
}): string[] {
  const errors: string[] = []
  const byId = new Map(input.operations.filter((op) => op.outcome !== 'not-committed').map((op) => [op.id, op]))
  const order: string[] = []
  for (const appendId of input.appendIds) {
    const id = appendId.slice(0, appendId.lastIndexOf('.'))
    if (order.at(-1) !== id) order.push(id)
  }
  if (new Set(order).size !== order.length) errors.push('an operation\'s additions are not contiguous in the domain')
  const committed = input.operations.filter((op) => op.outcome === 'committed').map((op) => op.id)
  for (const id of committed) if (!order.includes(id)) errors.push(`committed ${id} appended nothing to the domain`)
  const heads = new Map<string, string>()
  const headOf = (participant: string) => heads.get(participant) ?? input.genesisHead(participant)
  for (const id of order) {
    const op = byId.get(id)
    if (!op) { errors.push(`${id} appended to the domain but did not commit`); continue }
    const count = input.appendIds.filter((appendId) => appendId.startsWith(`${id}.`)).length
    if (count !== Object.keys(op.proposed).length) errors.push(`${id} appended ${count} additions for ${Object.keys(op.proposed).length} participants`)
    for (const [participant, expected] of Object.entries(op.expected)) {
      if (headOf(participant) !== expected) errors.push(`${id} is out of order in the domain: ${participant} was not at its expected head`)
      heads.set(participant, op.proposed[participant]!)
    }
  }
  for (const [participant, state] of input.finalHeads) {
    if (headOf(participant) !== state.head) errors.push(`replaying the domain leaves ${participant} at another head than the final one`)
  }
  return errors
}
