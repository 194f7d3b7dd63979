/**
 * What an adapter author hands the conformance suites: a factory of fresh adapters (or of fixtures
 * that also reach the backend directly), plus capability flags. Each suite makes one fixture per test
 * and disposes of it afterwards.
 */
import type { BlobStore } from '../ports/blob-store.js'
import type { EventBus } from '../ports/event-bus.js'
import type { KeyStore } from '../ports/key-store.js'
import type { CollectionSpec, Json, Store } from '../ports/store.js'
import { withFaults } from './fault-injection.js'
import { closeQuietly } from './support/each-test.js'

/** Reads a Store's backend directly, not through the adapter under test (Auth.js's adapter tests habit). */
export interface StoreInspector {
  /** The document as the backend holds it, or undefined. */
  readDocument(collection: string, key: string): Promise<{ readonly version: number; readonly value: Json } | undefined>
  /** How many entries the backend holds for `stream`. */
  readStreamLength(stream: string): Promise<number>
}

export interface StoreFixture {
  readonly store: Store
  readonly inspect?: StoreInspector
  /** A second, independent connection to the same backend (another client, another file handle). */
  connectAgain?(): Promise<Store>
  /** Remove what the fixture made (temporary files, databases); the suite closes the stores itself. */
  destroy?(): Promise<void>
}

export interface StoreConformanceOptions {
  /** Prefix of every test name, e.g. `store=sqlite blobs=fs`. */
  readonly name: string
  /** A fresh, empty store (or fixture) per call. */
  create(): Promise<Store | StoreFixture>
  readonly capabilities?: {
    /**
     * Several processes or hosts share the backend: the suite also races commits over two
     * connections (needs `connectAgain` on the fixture).
     */
    readonly multiProcess?: boolean
  }
  /** Random command sequences compared with MemoryStore. @default 40 */
  readonly propertyRuns?: number
}

export interface BlobStoreFixture {
  readonly blobs: BlobStore
  /** Change the stored bytes of `sha256` directly in the backend (flip bits at rest). */
  corrupt?(sha256: string): Promise<void>
  /**
   * The same kind of store pointed at a backend that does not exist (an S3 bucket never made), for
   * backends where that can happen; the suite closes it.
   */
  missingBackend?(): Promise<BlobStore>
  destroy?(): Promise<void>
}

export interface BlobStoreConformanceOptions {
  readonly name: string
  create(): Promise<BlobStore | BlobStoreFixture>
  /** Size of the streamed blob. @default 6 */
  readonly largeBlobMiB?: number
}

export interface EventBusFixture {
  readonly bus: EventBus
  /** Another host's bus on the same backend: what it publishes reaches this one's subscribers. */
  connectAgain?(): Promise<EventBus>
  destroy?(): Promise<void>
}

export interface EventBusConformanceOptions {
  readonly name: string
  create(): Promise<EventBus | EventBusFixture>
  /** How long a delivery may take. @default 5000 */
  readonly deliveryTimeoutMs?: number
}

export interface KeyStoreFixture {
  readonly keys: KeyStore
  /** The same key store opened again (a restart): it must hold the same keys. */
  reopen?(): Promise<KeyStore>
  destroy?(): Promise<void>
}

export interface KeyStoreConformanceOptions {
  readonly name: string
  create(): Promise<KeyStore | KeyStoreFixture>
}

/** A store fixture as the suites use it: every connection it opens is closed by `dispose`. */
export interface OpenStoreFixture {
  readonly store: Store
  readonly inspect: StoreInspector
  /** True when `inspect` reads the backend directly rather than through the adapter. */
  readonly inspectsBackend: boolean
  readonly connectAgain: (() => Promise<Store>) | undefined
  dispose(): Promise<void>
}

/**
 * A second host on the fixture's backend, with `collections` declared: another connection where the
 * adapter opens one, else the same store behind a pass-through wrapper (still a second object, so
 * nothing is shared by identity).
 */
export async function secondHost(fixture: OpenStoreFixture, collections: readonly CollectionSpec[]): Promise<Store> {
  const again = fixture.connectAgain ? await fixture.connectAgain() : withFaults(fixture.store, [])
  await again.declare(collections)
  return again
}

/** Open a fixture from `create`, filling in what it leaves out. */
export async function openStoreFixture(create: StoreConformanceOptions['create']): Promise<OpenStoreFixture> {
  const made = await create()
  const fixture: StoreFixture = 'commit' in made ? { store: made } : made
  const store = fixture.store
  const connections: Store[] = [store]
  const connectAgain = fixture.connectAgain?.bind(fixture)
  return {
    store,
    inspect: fixture.inspect ?? inspectThroughAdapter(store),
    inspectsBackend: fixture.inspect !== undefined,
    connectAgain:
      connectAgain &&
      (async () => {
        const another = await connectAgain()
        connections.push(another)
        return another
      }),
    dispose: async () => {
      for (const connection of connections) await closeQuietly(connection)
      await fixture.destroy?.()
    },
  }
}

/** The fallback when a backend cannot be read directly (MemoryStore): read through the port. */
function inspectThroughAdapter(store: Store): StoreInspector {
  return {
    readDocument: async (collection, key) => {
      const document = await store.get(collection, key)
      return document === undefined ? undefined : { version: document.version, value: document.value }
    },
    readStreamLength: async (stream) => (await store.streamHead(stream))?.sequence ?? 0,
  }
}

/** Normalise what a blob factory made. */
export async function openBlobFixture(create: BlobStoreConformanceOptions['create']): Promise<BlobStoreFixture & { dispose(): Promise<void> }> {
  const made = await create()
  const fixture: BlobStoreFixture = 'putStream' in made ? { blobs: made } : made
  return {
    ...fixture,
    dispose: async () => {
      await closeQuietly(fixture.blobs)
      await fixture.destroy?.()
    },
  }
}

/** What a whole-Cairn scenario runs on: one storage combination. */
export interface ScenarioOptions {
  /** e.g. `store=sqlite blobs=fs`. */
  readonly name: string
  readonly store: StoreConformanceOptions['create']
  readonly blobs: BlobStoreConformanceOptions['create']
}
