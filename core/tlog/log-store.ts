/**
 * How the log lives in the Store: one tree-state document (size, root, signed checkpoint, where
 * the leaf stream was read up to), hash tiles and entry bundles as documents. Tiles and bundles
 * change only in the same commit as the tree state, so they always match the current checkpoint.
 */
import * as t from 'io-ts'
import type { CollectionSpec, Store } from '../../ports/store.js'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'
import { fromBase64, toBase64 } from './base64.js'
import { HASH_SIZE } from './merkle.js'
import type { ReadTile } from './tile-hashes.js'

export const LOG_STATE_COLLECTION = 'tlog.state'
export const LOG_TILES_COLLECTION = 'tlog.tiles'
export const LOG_BUNDLES_COLLECTION = 'tlog.bundles'
export const LOG_STATE_KEY = 'tree'
/** Leaf hash (lowercase hex) → leaf index, so whoever holds a record can find its proof. */
export const LOG_LEAF_INDEX_COLLECTION = 'tlog.leafIndex'

const LogStateCodec = t.readonly(t.type({
  size: t.number,
  /** Standard base64 of the root hash. */
  rootHash: t.string,
  /** The signed C2SP checkpoint for `size`. */
  checkpoint: t.string,
  /** Cursor of the last integrated leaf in the leaf stream (null: none yet). */
  streamCursor: nullableString,
  /** Chained head of the leaf stream at `size` (null: empty). */
  streamHead: nullableString,
  integratedAtMs: t.number,
}))
export type LogState = t.TypeOf<typeof LogStateCodec>

const StoredTileCodec = t.readonly(t.type({
  level: t.number,
  index: t.number,
  width: t.number,
  /** Standard base64 of `width` concatenated hashes. */
  hashes: t.string,
}))
export type StoredTile = t.TypeOf<typeof StoredTileCodec>

const StoredBundleCodec = t.readonly(t.type({
  index: t.number,
  width: t.number,
  /** Standard base64 of the entry bundle (uint16 length-prefixed entries). */
  entries: t.string,
}))
export type StoredBundle = t.TypeOf<typeof StoredBundleCodec>

export const logStates = typedCollection({ name: LOG_STATE_COLLECTION }, LogStateCodec)
export const logTiles = typedCollection({ name: LOG_TILES_COLLECTION }, StoredTileCodec)
export const logBundles = typedCollection({ name: LOG_BUNDLES_COLLECTION }, StoredBundleCodec)
export const logLeafIndexes = typedCollection({ name: LOG_LEAF_INDEX_COLLECTION }, t.readonly(t.type({ index: t.number })))

export const tlogCollections: readonly CollectionSpec[] = [logStates.spec, logTiles.spec, logBundles.spec, logLeafIndexes.spec]

export const tileKey = (level: number, index: number) => `${level}/${index}`
export const bundleKey = (index: number) => String(index)

export async function readLogState(store: Pick<Store, 'get'>): Promise<{ readonly value: LogState; readonly version: number } | undefined> {
  return logStates.get(store, LOG_STATE_KEY)
}

/** `decode`: the integrator passes its memo of the edge tiles (edge-memo.ts). */
export function decodeStoredTile(tile: StoredTile, decode: (text: string) => Uint8Array | undefined = fromBase64): Uint8Array {
  const bytes = decode(tile.hashes)
  if (!bytes || bytes.length !== tile.width * HASH_SIZE) throw new Error(`Stored tile ${tile.level}/${tile.index} is corrupt`)
  return bytes
}

export function encodeStoredTile(level: number, index: number, hashes: Uint8Array, encode: (bytes: Uint8Array) => string = toBase64): StoredTile {
  return { level, index, width: hashes.length / HASH_SIZE, hashes: encode(hashes) }
}

/**
 * Tiles as the Store holds them now (at least as wide as any tree up to the current checkpoint needs).
 * `decode`: as decodeStoredTile's, given the tile's key (the receipt passes the edge memo, so the
 * partial tile the integration just wrote is not decoded from base64 again).
 */
export function storeTileReader(store: Store, decode?: (key: string, text: string) => Uint8Array | undefined): ReadTile {
  return async (level, index) => {
    const key = tileKey(level, index)
    const stored = await logTiles.get(store, key)
    return stored ? decodeStoredTile(stored.value, decode && ((text) => decode(key, text))) : undefined
  }
}
