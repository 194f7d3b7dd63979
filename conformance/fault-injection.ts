/**
 * A Store wrapper that fails chosen calls, to prove what callers see when infrastructure fails at
 * the worst moment: before a commit reaches the store, or after it applied but before the reply
 * arrived (the caller gets an error although the commit is in). A Store whose commits are all or
 * nothing makes both safe to retry with the same expectations: the retry either wins or reports the
 * conflict that reveals the first attempt applied.
 */
import { PortUnavailableError } from '../ports/errors.js'
import type { CollectionSpec, CommitOutcome, Json, Page, QueryOptions, ReadStreamOptions, Store, StoredDocument, StreamEntry, StreamHead, Write } from '../ports/store.js'

/** The Store methods a fault can hit. */
export type StoreMethod = 'declare' | 'get' | 'getByUnique' | 'query' | 'commit' | 'streamHead' | 'readStream'

/** One planned failure. */
export interface Fault {
  readonly method: StoreMethod
  /** Which call of `method` fails, counting from 1. */
  readonly call: number
  /** 'before': the call never reaches the store. 'after': the store did the work, the reply is lost. */
  readonly when: 'before' | 'after'
}

/** The error an injected fault throws: a PortUnavailableError, as a real outage would be. */
export class InjectedFaultError extends PortUnavailableError {
  constructor(readonly fault: Fault) {
    super('Store', `Injected fault: call ${fault.call} of ${fault.method} failed ${fault.when} reaching the store`)
    this.name = 'InjectedFaultError'
  }
}

/** A Store that fails as planned and counts its calls. */
export interface FaultyStore extends Store {
  /** How many calls of `method` were made so far (failed ones included). */
  callsOf(method: StoreMethod): number
}

/**
 * @example
 * const faulty = withFaults(store, [{ method: 'commit', call: 1, when: 'after' }])
 * await faulty.commit(writes) // rejects with InjectedFaultError, yet the writes are stored
 */
export function withFaults(store: Store, plan: readonly Fault[]): FaultyStore {
  const calls = new Map<StoreMethod, number>()
  const invoke = async <T>(method: StoreMethod, run: () => Promise<T>): Promise<T> => {
    const call = (calls.get(method) ?? 0) + 1
    calls.set(method, call)
    const fault = plan.find((planned) => planned.method === method && planned.call === call)
    if (fault?.when === 'before') throw new InjectedFaultError(fault)
    const result = await run()
    if (fault?.when === 'after') throw new InjectedFaultError(fault)
    return result
  }
  return {
    declare: (collections: readonly CollectionSpec[]) => invoke('declare', () => store.declare(collections)),
    get: <T extends Json = Json>(collection: string, key: string) => invoke<StoredDocument<T> | undefined>('get', () => store.get<T>(collection, key)),
    getByUnique: <T extends Json = Json>(collection: string, uniqueKey: string, value: string) =>
      invoke<StoredDocument<T> | undefined>('getByUnique', () => store.getByUnique<T>(collection, uniqueKey, value)),
    query: <T extends Json = Json>(collection: string, options: QueryOptions) =>
      invoke<Page<StoredDocument<T>>>('query', () => store.query<T>(collection, options)),
    commit: (writes: readonly Write[]) => invoke<CommitOutcome>('commit', () => store.commit(writes)),
    streamHead: (stream: string) => invoke<StreamHead | undefined>('streamHead', () => store.streamHead(stream)),
    readStream: <T extends Json = Json>(stream: string, options?: ReadStreamOptions) =>
      invoke<Page<StreamEntry<T>>>('readStream', () => store.readStream<T>(stream, options)),
    close: () => store.close(),
    callsOf: (method) => calls.get(method) ?? 0,
  }
}
