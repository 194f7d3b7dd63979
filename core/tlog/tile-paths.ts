/**
 * C2SP tlog-tiles coordinates: tiles of height 8 (256 hashes), addressed `tile/<L>/<N>[.p/<W>]`
 * and entry bundles `tile/entries/<N>[.p/<W>]`, with N written in 3-digit path elements, all but
 * the last prefixed with `x` (1234067 → x001/x234/067).
 */

export const TILE_HEIGHT = 8
export const TILE_WIDTH = 256

export type TileCoordinate =
  | { readonly kind: 'hashes'; readonly level: number; readonly index: number; readonly width: number }
  | { readonly kind: 'entries'; readonly index: number; readonly width: number }

/** @example encodeTileIndex(1234067) // 'x001/x234/067' */
export function encodeTileIndex(index: number): string {
  const groups: string[] = []
  let rest = index
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'))
    rest = Math.floor(rest / 1000)
  } while (rest > 0)
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/')
}

/** The path of a tile below the log prefix, e.g. `tile/0/x001/234.p/7`. */
export function tilePath(tile: TileCoordinate): string {
  const level = tile.kind === 'entries' ? 'entries' : String(tile.level)
  const partial = tile.width < TILE_WIDTH ? `.p/${tile.width}` : ''
  return `tile/${level}/${encodeTileIndex(tile.index)}${partial}`
}

/**
 * Parses the part of a path after `tile/`; undefined for anything the spec does not allow
 * (leading zeros in L or W, a width of 0 or 256, a malformed index).
 *
 * @example parseTilePath('0/x001/234.p/7') // { kind: 'hashes', level: 0, index: 1234, width: 7 }
 */
export function parseTilePath(path: string): TileCoordinate | undefined {
  const match = /^(entries|0|[1-9]\d?)\/((?:x\d{3}\/)*)(\d{3})(?:\.p\/([1-9]\d{0,2}))?$/.exec(path)
  if (!match) return undefined
  const [, level, prefixGroups, lastGroup, widthText] = match
  const digits = (prefixGroups ?? '').split('/').filter(Boolean).map((group) => group.slice(1)).join('') + lastGroup
  if (digits.length > 3 && digits.startsWith('000')) return undefined // non-canonical: a leading empty group
  const index = Number(digits)
  if (!Number.isSafeInteger(index)) return undefined
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText)
  if (widthText !== undefined && width >= TILE_WIDTH) return undefined
  if (level === 'entries') return { kind: 'entries', index, width }
  const levelNumber = Number(level)
  return levelNumber > 63 ? undefined : { kind: 'hashes', level: levelNumber, index, width }
}

/** 256^level as a number. */
export function tileSpan(level: number): number {
  return TILE_WIDTH ** level
}

/** How many hashes tile (level, index) holds in a tree of `size` leaves (0: it does not exist yet). */
export function tileWidthAt(level: number, index: number, size: number): number {
  const hashesAtLevel = Math.floor(size / tileSpan(level))
  return Math.max(0, Math.min(TILE_WIDTH, hashesAtLevel - index * TILE_WIDTH))
}

/** Entry bundles: big-endian uint16 length-prefixed entries, so an entry is at most 65535 bytes. */
export const MAX_ENTRY_BYTES = 0xffff

export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(entries.reduce((total, entry) => total + 2 + entry.length, 0))
  let at = 0
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new RangeError(`A log entry is at most ${MAX_ENTRY_BYTES} bytes`)
    out[at] = entry.length >> 8
    out[at + 1] = entry.length & 0xff
    out.set(entry, at + 2)
    at += 2 + entry.length
  }
  return out
}

export function decodeEntryBundle(bundle: Uint8Array): Uint8Array[] | undefined {
  const entries: Uint8Array[] = []
  let at = 0
  while (at < bundle.length) {
    if (at + 2 > bundle.length) return undefined
    const length = (bundle[at]! << 8) | bundle[at + 1]!
    if (at + 2 + length > bundle.length) return undefined
    entries.push(bundle.slice(at + 2, at + 2 + length))
    at += 2 + length
  }
  return entries
}

/**
 * How many bytes the first `count` entries of a bundle take, the whole bundle checked as
 * decodeEntryBundle checks it; undefined when it is malformed or holds fewer. Lets a bundle grow
 * by appending to its bytes instead of splitting every entry out and joining them again.
 */
export function entryBundlePrefixLength(bundle: Uint8Array, count: number): number | undefined {
  let at = 0
  let seen = 0
  let prefix = count === 0 ? 0 : undefined
  while (at < bundle.length) {
    if (at + 2 > bundle.length) return undefined
    const length = (bundle[at]! << 8) | bundle[at + 1]!
    if (at + 2 + length > bundle.length) return undefined
    at += 2 + length
    if (++seen === count) prefix = at
  }
  return prefix
}
