/**
 * The package artifact's exact bytes, written here rather than by fflate's `zipSync` so the
 * payload is never copied: a sealed package is `[head, payload, tail]`, where the payload is the
 * caller's own bytes and head and tail are small. The layout is byte for byte what
 * `zipSync(…, { level: 0, mtime: ZIP_EPOCH })` wrote for the two entries (the golden vectors pin
 * it): stored entries, version 2.0, no extra fields, no comments, DOS date 1980-01-01 00:00, the
 * UTF-8 flag only on names that are not ASCII.
 */
import { equalRange, utf8 } from '../bytes.js'
import type { Crc32 } from '../crc32.js'

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_DIRECTORY = 0x06054b50
const LOCAL_HEADER_LENGTH = 30
const CENTRAL_HEADER_LENGTH = 46
const END_LENGTH = 22
/** MS-DOS date of 1980-01-01 (year 0, month 1, day 1); time 00:00:00 is zero. */
const DOS_DATE_EPOCH = (1 << 5) | 1
const UTF8_NAME_FLAG = 0x0800

export interface StoredEntry {
  readonly name: string
  readonly data: Uint8Array
  readonly crc: number
}

interface PlacedEntry extends StoredEntry {
  readonly nameBytes: Uint8Array
  readonly flags: number
  readonly offset: number
}

function place(entries: readonly StoredEntry[]): PlacedEntry[] {
  let offset = 0
  return entries.map((entry) => {
    const nameBytes = nameBytesOf(entry.name)
    if (nameBytes.length > 0xffff) throw new RangeError('A ZIP entry name is longer than 65,535 bytes')
    // fflate flags UTF-8 when the name's byte length differs from its UTF-16 length; the same rule keeps the bytes identical.
    // Members named, not `{ ...entry, … }`: V8 (Node 20) builds an object that starts with a spread and then
    // adds members on a slow path, about 3 µs each here, and a verify places four entries.
    const placed: PlacedEntry = { name: entry.name, data: entry.data, crc: entry.crc, nameBytes, flags: nameBytes.length !== entry.name.length ? UTF8_NAME_FLAG : 0, offset }
    offset += LOCAL_HEADER_LENGTH + nameBytes.length + entry.data.length
    return placed
  })
}

/**
 * The UTF-8 bytes of an entry name. Short ASCII names (every name a seal writes but the payload's
 * odd one) are copied by hand into a small array: TextEncoder's call into C++ costs more than the copy.
 */
function nameBytesOf(name: string): Uint8Array {
  if (name.length > 64) return utf8(name)
  const bytes = new Uint8Array(name.length)
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i)
    if (code > 0x7f) return utf8(name)
    bytes[i] = code
  }
  return bytes
}

/** The fields local and central headers share, from "version needed" to "extra field length". */
function writeCommon(view: DataView, at: number, entry: PlacedEntry): void {
  view.setUint16(at, 20, true)
  view.setUint16(at + 2, entry.flags, true)
  view.setUint16(at + 4, 0, true) // stored
  view.setUint16(at + 6, 0, true) // 00:00:00
  view.setUint16(at + 8, DOS_DATE_EPOCH, true)
  view.setUint32(at + 10, entry.crc >>> 0, true)
  view.setUint32(at + 14, entry.data.length, true)
  view.setUint32(at + 18, entry.data.length, true)
  view.setUint16(at + 22, entry.nameBytes.length, true)
  view.setUint16(at + 24, 0, true)
}

function writeLocalHeader(bytes: Uint8Array, view: DataView, at: number, entry: PlacedEntry): number {
  view.setUint32(at, LOCAL_HEADER, true)
  writeCommon(view, at + 4, entry)
  bytes.set(entry.nameBytes, at + LOCAL_HEADER_LENGTH)
  return at + LOCAL_HEADER_LENGTH + entry.nameBytes.length
}

function centralDirectoryLength(entries: readonly PlacedEntry[]): number {
  return entries.reduce((sum, entry) => sum + CENTRAL_HEADER_LENGTH + entry.nameBytes.length, 0)
}

function writeCentralDirectory(bytes: Uint8Array, view: DataView, at: number, entries: readonly PlacedEntry[]): void {
  const length = centralDirectoryLength(entries)
  const start = entries.length === 0 ? 0 : entries.at(-1)!.offset + LOCAL_HEADER_LENGTH + entries.at(-1)!.nameBytes.length + entries.at(-1)!.data.length
  for (const entry of entries) {
    view.setUint32(at, CENTRAL_HEADER, true)
    view.setUint16(at + 4, 20, true) // made by: version 2.0, MS-DOS attributes
    writeCommon(view, at + 6, entry)
    // comment length, disk number, internal and external attributes stay zero
    view.setUint32(at + 42, entry.offset, true)
    bytes.set(entry.nameBytes, at + CENTRAL_HEADER_LENGTH)
    at += CENTRAL_HEADER_LENGTH + entry.nameBytes.length
  }
  view.setUint32(at, END_OF_DIRECTORY, true)
  view.setUint16(at + 8, entries.length, true)
  view.setUint16(at + 10, entries.length, true)
  view.setUint32(at + 12, length, true)
  view.setUint32(at + 16, start, true)
}

/** The length of a header part: the local headers of `headed` (with their data when small), then `directory`'s central directory if given. */
function headerPartLength(headed: readonly PlacedEntry[], directory?: readonly PlacedEntry[]): number {
  let length = directory ? centralDirectoryLength(directory) + END_LENGTH : 0
  for (const entry of headed) length += LOCAL_HEADER_LENGTH + entry.nameBytes.length + (isSmall(entry) ? entry.data.length : 0)
  return length
}

/** Writes that header part at the start of `bytes` (at least `headerPartLength` long). */
function writeHeaderPart(bytes: Uint8Array, headed: readonly PlacedEntry[], directory?: readonly PlacedEntry[]): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  for (const entry of headed) {
    at = writeLocalHeader(bytes, view, at, entry)
    if (isSmall(entry)) {
      bytes.set(entry.data, at)
      at += entry.data.length
    }
  }
  if (directory) writeCentralDirectory(bytes, view, at, directory)
}

const isSmall = (entry: PlacedEntry) => entry.data.length <= SMALL_ENTRY

/**
 * The archive's layout: runs of entries whose headers (and small data) form one part, each but the
 * last followed by a large entry's data as a part of its own; the last run's part ends with the
 * central directory. Small entries (the proof) are folded into the header around them.
 */
function runsOf(placed: readonly PlacedEntry[]): { readonly headed: readonly PlacedEntry[]; readonly large?: PlacedEntry }[] {
  const runs: { headed: PlacedEntry[]; large?: PlacedEntry }[] = []
  let headed: PlacedEntry[] = []
  for (const entry of placed) {
    headed.push(entry)
    if (!isSmall(entry)) {
      runs.push({ headed, large: entry })
      headed = []
    }
  }
  runs.push({ headed })
  return runs
}

/**
 * The archive as consecutive parts: every large entry's data is its own part (the caller's array,
 * not a copy); everything between is freshly written header bytes, each part one array (a typed
 * array past 64 bytes is allocated off V8's heap, so a seal's package costs two allocations, not six).
 */
export function storedZipParts(entries: readonly StoredEntry[]): Uint8Array[] {
  const placed = place(entries)
  const parts: Uint8Array[] = []
  for (const { headed, large } of runsOf(placed)) {
    const directory = large ? undefined : placed
    const header = new Uint8Array(headerPartLength(headed, directory))
    writeHeaderPart(header, headed, directory)
    parts.push(header)
    if (large) parts.push(large.data)
  }
  return parts
}

/**
 * Whether `bytes` are exactly `storedZipParts(entries)` joined, without writing the parts: each
 * header part is written into one scratch array, reused, and compared in place; a large entry's
 * data that is the very view of `bytes` at its place (a payload read from this file) is equal
 * without looking. A verify asks twice per package (reading it, checking it is exact), where
 * building the parts cost four arrays off V8's heap and a copy of the proof each time.
 */
export function isStoredZip(bytes: Uint8Array, entries: readonly StoredEntry[]): boolean {
  const placed = place(entries)
  let at = 0
  for (const { headed, large } of runsOf(placed)) {
    const directory = large ? undefined : placed
    const length = headerPartLength(headed, directory)
    if (scratch.length < length) scratch = new Uint8Array(Math.max(length, 2 * scratch.length))
    // Zeroed first: the writer leaves the fields that stay zero (attributes, disk numbers, comment lengths) as it finds them.
    const header = scratch.subarray(0, length).fill(0)
    writeHeaderPart(header, headed, directory)
    if (!equalRange(header, 0, bytes, at, length)) return false
    at += length
    if (large) {
      const inPlace = large.data.buffer === bytes.buffer && large.data.byteOffset === bytes.byteOffset + at
      if (!inPlace && !equalRange(large.data, 0, bytes, at, large.data.length)) return false
      at += large.data.length
    }
  }
  return at === bytes.length
}

/** isStoredZip's header parts are written here (synchronously, so one array serves every call); it grows to the largest proof seen. */
let scratch = new Uint8Array(4096)

/** Entries up to this size are copied into the surrounding header part (fewer, larger writes). */
const SMALL_ENTRY = 64 * 1024

/** The CRC-32 and entry of `data` named `name`. */
export const storedEntry = (name: string, data: Uint8Array, crc32: Crc32): StoredEntry => ({ name, data, crc: crc32(data) })
