/**
 * Prometheus metrics (prom-client), off unless asked for: a registry of Cairn's own (never the
 * process-global one, so two Cairns in one process do not collide) holding
 * - `cairn_http_requests_total{operation,method,status}` and
 *   `cairn_http_request_duration_seconds{operation,method,status}` for every route,
 * - `cairn_store_commit_duration_seconds{outcome}` and `cairn_store_commit_conflicts_total`
 *   (through `meteredStore`, a Store decorator; outcome is committed, conflict or error),
 * - `cairn_ledger_movements_per_commit`: the ledger entries each committed commit wrote, which is
 *   how many movements the group commit batched (the same decorator),
 * - `cairn_log_sequenced_leaves` and `cairn_log_integrated_leaves`: the transparency log's leaf
 *   stream and the size of its latest signed checkpoint, read from the Store at each scrape
 *   (`watchLog`); while they differ, leaves wait for integration (Tessera's integration lag),
 * - `cairn_http_body_bytes_in_flight`: request body bytes read and not yet released, kept by the
 *   transport's body reader through `BodyBytesInFlight`,
 * - Node's process metrics (`collectDefaultMetrics`, prefixed `cairn_`).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { readLogState } from '../../core/tlog/log-store.js'
import { LOG_LEAF_STREAM } from '../../core/tlog/sequence.js'
import { VALUE_ENTRIES } from '../../core/value/ledger-entry.js'
import type { CommitOutcome, Store, Write } from '../../ports/store.js'

/** Body bytes held by requests in flight; the body reader adds what it buffers and releases it when done. */
export interface BodyBytesInFlight {
  add(bytes: number): void
  release(bytes: number): void
}

export interface CairnMetrics {
  readonly registry: Registry
  readonly bodyBytesInFlight: BodyBytesInFlight
  /** Counts and times one answered request. */
  observeRequest(operation: string, method: string, status: number, seconds: number): void
  /** Times one Store commit; `ledgerEntries`: the movements a committed one wrote. */
  observeCommit(outcome: 'committed' | 'conflict' | 'error', seconds: number, ledgerEntries?: number): void
  /** Report the transparency log of `store` at each scrape (the last store given wins; while it cannot be read, the log gauges keep their last values). */
  watchLog(store: Pick<Store, 'get' | 'streamHead'>): void
  /** The exposition text and its content type, for a `/metrics` endpoint. */
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>
}

/** @example const metrics = createMetrics(); createCairn({ metrics }); await metrics.scrape() */
export function createMetrics(options: { readonly defaultMetrics?: boolean } = {}): CairnMetrics {
  const registry = new Registry()
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'cairn_' })
  const requests = new Counter({ name: 'cairn_http_requests_total', help: 'HTTP requests answered, by operation, method and status', labelNames: ['operation', 'method', 'status'], registers: [registry] })
  const latency = new Histogram({
    name: 'cairn_http_request_duration_seconds',
    help: 'Time from routing a request to its answer, by operation, method and status',
    labelNames: ['operation', 'method', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  const commits = new Histogram({
    name: 'cairn_store_commit_duration_seconds',
    help: 'Store commit latency, by outcome (committed, conflict, error)',
    labelNames: ['outcome'],
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  const conflicts = new Counter({ name: 'cairn_store_commit_conflicts_total', help: 'Store commits refused by a failed expectation (lost races)', registers: [registry] })
  const inFlight = new Gauge({ name: 'cairn_http_body_bytes_in_flight', help: 'Request body bytes read and not yet released', registers: [registry] })
  const batches = new Histogram({
    name: 'cairn_ledger_movements_per_commit',
    help: 'Ledger entries written by one committed Store commit: how many movements the group commit batched',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  })
  let watched: Pick<Store, 'get' | 'streamHead'> | undefined
  logGauge(registry, 'cairn_log_sequenced_leaves', 'Leaves sequenced into the transparency log (its leaf stream), integrated or not', async () =>
    watched && ((await watched.streamHead(LOG_LEAF_STREAM))?.sequence ?? 0))
  logGauge(registry, 'cairn_log_integrated_leaves', 'Leaves in the latest signed checkpoint of the transparency log (its tree size)', async () =>
    watched && ((await readLogState(watched))?.value.size ?? 0))
  return {
    registry,
    bodyBytesInFlight: { add: (bytes) => inFlight.inc(bytes), release: (bytes) => inFlight.dec(bytes) },
    observeRequest(operation, method, status, seconds) {
      const labels = { operation, method, status: String(status) }
      requests.inc(labels)
      latency.observe(labels, seconds)
    },
    observeCommit(outcome, seconds, ledgerEntries = 0) {
      commits.observe({ outcome }, seconds)
      if (outcome === 'conflict') conflicts.inc()
      if (ledgerEntries > 0) batches.observe(ledgerEntries)
    },
    watchLog(store) {
      watched = store
    },
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  }
}

/**
 * A gauge read at each scrape. While nothing is watched, or the read fails, it keeps its last value
 * (prom-client writes an unlabelled gauge even when reset, as 0, which would read as an empty log):
 * a store that cannot answer never costs the rest of the scrape, when metrics are needed most, and
 * /readyz says the store is down.
 */
function logGauge(registry: Registry, name: string, help: string, read: () => Promise<number | undefined>): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const value = await read().catch(() => undefined)
      if (value !== undefined) this.set(value)
    },
  })
}

/** The same Store, its commits timed, its conflicts and its ledger batches counted; every other call passes straight through. */
export function meteredStore(store: Store, metrics: Pick<CairnMetrics, 'observeCommit'>): Store {
  return {
    declare: (collections) => store.declare(collections),
    get: (collection, key) => store.get(collection, key),
    getByUnique: (collection, uniqueKey, value) => store.getByUnique(collection, uniqueKey, value),
    query: (collection, options) => store.query(collection, options),
    streamHead: (stream) => store.streamHead(stream),
    readStream: (stream, options) => store.readStream(stream, options),
    close: () => store.close(),
    async commit(writes: readonly Write[]): Promise<CommitOutcome> {
      const started = performance.now()
      try {
        const outcome = await store.commit(writes)
        metrics.observeCommit(outcome.ok ? 'committed' : 'conflict', (performance.now() - started) / 1000, outcome.ok ? ledgerEntriesIn(writes) : 0)
        return outcome
      } catch (error) {
        metrics.observeCommit('error', (performance.now() - started) / 1000)
        throw error
      }
    },
  }
}

/** Ledger entries among `writes`: one per movement the commit holds. */
function ledgerEntriesIn(writes: readonly Write[]): number {
  let entries = 0
  for (const write of writes) if (write.kind === 'put' && write.collection === VALUE_ENTRIES) entries++
  return entries
}
