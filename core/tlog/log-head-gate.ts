/**
 * Who may append to the log while a sequencer holds its head, per Store, in this process.
 *
 * Most appenders take the next position (`appendNext`) and never lose a race on the head, so any
 * number of them commit at once: they hold the gate shared. A movement batch cannot: what it
 * publishes names the index of its leaves, so it reads the log's head and commits its leaves
 * behind that head (`expectHead`). Without the gate, every seal committed between that read and
 * that commit failed the batch, and under a steady stream of seals movements starved (on memory,
 * 96 transfers in 3 s against 7,264 seals). The batch holds the gate exclusively from reading the
 * head to its commit: it waits for the shared holders under way, and appenders arriving meanwhile
 * wait behind it. Holders take turns: shared holders that waited go first when an exclusive
 * holder leaves, an exclusive waiter first when the last shared holder leaves. Other processes on
 * the same Store are not held; a batch that loses to one is decided again (core/value/movement.ts).
 */
import type { Store } from '../../ports/store.js'

interface Gate {
  shared: number
  exclusive: boolean
  readonly waitingShared: (() => void)[]
  readonly waitingExclusive: (() => void)[]
}

const gates = new WeakMap<Store, Gate>()

function gateOf(store: Store): Gate {
  let gate = gates.get(store)
  if (gate === undefined) {
    gate = { shared: 0, exclusive: false, waitingShared: [], waitingExclusive: [] }
    gates.set(store, gate)
  }
  return gate
}

/** Runs `append` (a commit that takes the log's next positions) alongside other such appends, never inside an exclusive hold. */
export async function appendingToLog<T>(store: Store, append: () => Promise<T>): Promise<T> {
  const gate = gateOf(store)
  if (gate.exclusive || gate.waitingExclusive.length > 0) await new Promise<void>((admit) => gate.waitingShared.push(admit))
  else gate.shared++
  try {
    return await append()
  } finally {
    gate.shared--
    if (gate.shared === 0) admitExclusive(gate)
  }
}

/** Runs `sequence` (read the log's head … commit behind it) with no other append of this process in between. */
export async function holdingLogHead<T>(store: Store, sequence: () => Promise<T>): Promise<T> {
  const gate = gateOf(store)
  if (gate.exclusive || gate.shared > 0) await new Promise<void>((admit) => gate.waitingExclusive.push(admit))
  else gate.exclusive = true
  try {
    return await sequence()
  } finally {
    gate.exclusive = false
    if (!admitShared(gate)) admitExclusive(gate)
  }
}

/** Lets every waiting shared holder in; false when none waited. */
function admitShared(gate: Gate): boolean {
  if (gate.waitingShared.length === 0) return false
  const admitted = gate.waitingShared.splice(0)
  gate.shared += admitted.length
  for (const admit of admitted) admit()
  return true
}

function admitExclusive(gate: Gate): void {
  const admit = gate.waitingExclusive.shift()
  if (admit === undefined) return
  gate.exclusive = true
  admit()
}
