/**
 * The integrator: folds sequenced leaves into tiles and signs the next checkpoint, in ONE Store
 * commit guarded by the tree state's version. A crash at any point leaves either the old tree or
 * the new one; running it again is harmless (idempotent); two hosts integrating at once cannot
 * fork the tree, because only one commit can win the version expectation and the loser re-reads.
 */
import type { Json, Write } from '../../ports/store.js'
import { unchangedSince } from '../usecases/typed-collection.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { toBase64, toHex } from './base64.js'
import { base64MemoOf, memoTileReader, type Base64Memo } from './edge-memo.js'
import { checkpointText } from './checkpoint.js'
import { logSigner } from './log-identity.js'
import { bundleKey, encodeStoredTile, LOG_STATE_KEY, logBundles, logLeafIndexes, logStates, logTiles, readLogState, tileKey, type LogState, type StoredBundle } from './log-store.js'
import { leafHash } from './merkle.js'
import { signNote } from './signed-note.js'
import { LOG_LEAF_STREAM, leafEntryBytes, type LogLeaf } from './sequence.js'
import { extendTiles, edgeTileCoordinates, type Tile } from './tile-builder.js'
import { treeRoot, type ReadTile, type SubtreeHashes } from './tile-hashes.js'
import { encodeEntryBundle, entryBundlePrefixLength, TILE_WIDTH } from './tile-paths.js'

export type IntegrateDeps = Pick<CoreDeps, 'store' | 'keys' | 'clock' | 'config'>

export interface IntegrationResult {
  /** The tree size after this step (as committed by this call or found in the Store). */
  readonly size: number
  /** How many leaves this call integrated (0: nothing new, or another host won the race). */
  readonly integrated: number
  readonly state: LogState
}

/** At most this many leaves per commit (a few tiles and bundles, well under any document limit). */
export const MAX_LEAVES_PER_STEP = 1000

/**
 * One integration step. The first step on an empty store signs the checkpoint of the empty tree.
 * `known`: subtree hashes to reuse and add to (awaitInclusion's proof right after needs them).
 *
 * @example const { size } = await integrateStep(deps)
 */
export async function integrateStep(deps: IntegrateDeps, maxLeaves = MAX_LEAVES_PER_STEP, known?: SubtreeHashes): Promise<IntegrationResult> {
  const { store } = deps
  const current = await readLogState(store)
  const size = current?.value.size ?? 0
  const page = await store.readStream<LogLeaf & Json>(LOG_LEAF_STREAM, {
    ...(current?.value.streamCursor ? { after: current.value.streamCursor } : {}),
    limit: Math.min(maxLeaves, MAX_LEAVES_PER_STEP),
  })
  if (current && page.items.length === 0) return { size, integrated: 0, state: current.value }
  page.items.forEach((entry, i) => {
    if (entry.sequence !== size + i + 1) throw new Error(`Log leaf stream out of step: sequence ${entry.sequence} where ${size + i + 1} was expected`)
  })

  const entries = page.items.map((entry) => leafEntryBytes(entry.value))
  const memo = base64MemoOf(store)
  const readTile = memoTileReader(store)
  const edgeTiles = await loadEdgeTiles(readTile, size)
  const leafHashes = entries.map(leafHash)
  const changedTiles = extendTiles(size, edgeTiles, leafHashes)
  const changedBundles = await extendBundles(deps, size, entries, memo)
  const newSize = size + entries.length

  const inMemory = new Map<string, Uint8Array>([...edgeTiles, ...changedTiles].map((tile) => [tileKey(tile.level, tile.index), tile.hashes]))
  const rootHash = await treeRoot(newSize, async (level, index) => inMemory.get(tileKey(level, index)) ?? readTile(level, index), known)
  const signer = await logSigner(deps.keys, deps.config.baseUrl)
  const checkpoint = await signNote(checkpointText({ origin: signer.name, size: newSize, rootHash }), signer)
  const last = page.items.at(-1)
  const state: LogState = {
    size: newSize,
    rootHash: toBase64(rootHash),
    checkpoint,
    streamCursor: last?.cursor ?? current?.value.streamCursor ?? null,
    streamHead: last?.head ?? current?.value.streamHead ?? null,
    integratedAtMs: deps.clock.now(),
  }

  const writes: Write[] = [
    ...changedTiles.map((tile) => {
      const key = tileKey(tile.level, tile.index)
      return logTiles.put(key, encodeStoredTile(tile.level, tile.index, tile.hashes, (bytes) => memo.encode(`tile ${key}`, bytes)), { kind: 'any' })
    }),
    ...changedBundles.map((bundle) => logBundles.put(bundleKey(bundle.index), bundle, { kind: 'any' })),
    // Identical leaves share a hash; the lookup then names the latest one (either proves the record).
    ...leafHashes.map((hash, i) => logLeafIndexes.put(toHex(hash), { index: size + i }, { kind: 'any' })),
    logStates.put(LOG_STATE_KEY, state, unchangedSince(current?.version ?? null)),
  ]
  const outcome = await store.commit(writes)
  if (outcome.ok) return { size: newSize, integrated: entries.length, state }
  // Another host integrated first: its tree is the tree (same leaves, same order, same tiles).
  const winner = await readLogState(store)
  if (!winner) throw new Error('The log state vanished during integration')
  return { size: winner.value.size, integrated: 0, state: winner.value }
}

/**
 * Integrate until every leaf sequenced so far is in a checkpoint (or `maxSteps` steps ran).
 *
 * @example await integrateAll(deps) // { size: 42, … }
 */
export async function integrateAll(deps: IntegrateDeps, maxSteps = 100): Promise<IntegrationResult> {
  let result = await integrateStep(deps)
  for (let step = 1; step < maxSteps; step++) {
    const head = await deps.store.streamHead(LOG_LEAF_STREAM)
    if ((head?.sequence ?? 0) <= result.size) return result
    result = await integrateStep(deps)
  }
  return result
}

/** The rightmost tiles of the tree of `size` leaves, as views of the memo's bytes (extendTiles only reads them). */
async function loadEdgeTiles(readTile: ReadTile, size: number): Promise<Tile[]> {
  const tiles: Tile[] = []
  for (const edge of edgeTileCoordinates(size)) {
    if (edge.width === 0) continue
    const hashes = await readTile(edge.level, edge.index)
    if (!hashes) throw new Error(`Log tile ${edge.level}/${edge.index} is missing`)
    tiles.push({ level: edge.level, index: edge.index, hashes: hashes.subarray(0, edge.width * 32) })
  }
  return tiles
}

/** The entry bundles that change when `entries` follow the first `size` leaves. */
async function extendBundles(deps: IntegrateDeps, size: number, entries: readonly Uint8Array[], memo: Base64Memo): Promise<StoredBundle[]> {
  if (entries.length === 0) return []
  const firstIndex = Math.floor(size / TILE_WIDTH)
  // The partial bundle's first `size % TILE_WIDTH` entries, as their encoded bytes: new entries are appended to them.
  let head: Uint8Array = new Uint8Array(0)
  if (size % TILE_WIDTH !== 0) {
    const stored = await logBundles.get(deps.store, bundleKey(firstIndex))
    const bytes = stored ? memo.decode(`bundle ${bundleKey(firstIndex)}`, stored.value.entries) : undefined
    const end = bytes ? entryBundlePrefixLength(bytes, size % TILE_WIDTH) : undefined
    if (!bytes || end === undefined) throw new Error(`Log entry bundle ${firstIndex} is missing or corrupt`)
    head = bytes.subarray(0, end)
  }
  const bundles: StoredBundle[] = []
  let index = firstIndex
  let width = size % TILE_WIDTH
  let current: Uint8Array[] = []
  let position = size
  for (const entry of entries) {
    current.push(entry)
    position++
    if (position % TILE_WIDTH === 0 || position === size + entries.length) {
      // The head is the memo's own decoded bytes (or empty): encodeJoined need not compare it again.
      bundles.push({ index, width: width + current.length, entries: memo.encodeJoined(`bundle ${bundleKey(index)}`, head, encodeEntryBundle(current)) })
      index++
      current = []
      head = new Uint8Array(0)
      width = 0
    }
  }
  return bundles
}
