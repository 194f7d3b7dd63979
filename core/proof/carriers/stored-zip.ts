/**
 * The package artifact's exact bytes, written here rather than by fflate's `zipSync` so the
 * payload is never copied: a sealed package is `[head, payload, tail]`, where the payload is the
 * caller's own bytes and head and tail are small. The layout is byte for byte what
 * `zipSync(…, { level: 0, mtime: ZIP_EPOCH })` wrote for the two entries (the golden vectors pin
 * it): stored entries, version 2.0, no extra fields, no comments, DOS date 1980-01-01 00:00, the
 * UTF-8 flag only on names that are not ASCII.
 */
import { utf8 } from '../bytes.js'
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
    const nameBytes = utf8(entry.name)
    if (nameBytes.length > 0xffff) throw new RangeError('A ZIP entry name is longer than 65,535 bytes')
    // fflate flags UTF-8 when the name's byte length differs from its UTF-16 length; the same rule keeps the bytes identical.
    const placed = { name: entry.name, data: entry.data, crc: entry.crc, nameBytes, flags: nameBytes.length !== entry.name.length ? UTF8_NAME_FLAG : 0, offset }
    offset += LOCAL_HEADER_LENGTH + nameBytes.length + entry.data.length
    return placed
  })
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

/** The local header of `entry` at `at`; returns where it ends. */
function writeLocalHeader(bytes: Uint8Array, view: DataView, at: number, entry: PlacedEntry): number {
  view.setUint32(at, LOCAL_HEADER, true)
  writeCommon(view, at + 4, entry)
  bytes.set(entry.nameBytes, at + LOCAL_HEADER_LENGTH)
  return at + LOCAL_HEADER_LENGTH + entry.nameBytes.length
}

/** The central directory and its end record at `at`; returns where they end. */
function writeCentralDirectory(bytes: Uint8Array, view: DataView, at: number, entries: readonly PlacedEntry[]): number {
  const begin = at
  const last = entries.at(-1)
  const start = last === undefined ? 0 : last.offset + LOCAL_HEADER_LENGTH + last.nameBytes.length + last.data.length
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
  view.setUint32(at + 12, at - begin, true)
  view.setUint32(at + 16, start, true)
  return at + END_LENGTH
}

/**
 * The archive as consecutive parts: every large entry's data is its own part (the caller's array,
 * not a copy); everything between is header bytes (and small entries), written into one buffer the
 * other parts are views of: one allocation per package rather than one per header, which was most
 * of the cost of writing (and of checking) a small package.
 */
export function storedZipParts(entries: readonly StoredEntry[]): Uint8Array[] {
  const placed = place(entries)
  let length = END_LENGTH
  for (const entry of placed) length += LOCAL_HEADER_LENGTH + CENTRAL_HEADER_LENGTH + 2 * entry.nameBytes.length + (isSmall(entry) ? entry.data.length : 0)
  const bytes = new Uint8Array(length)
  const view = new DataView(bytes.buffer)
  const parts: Uint8Array[] = []
  let partStart = 0
  let at = 0
  for (const entry of placed) {
    at = writeLocalHeader(bytes, view, at, entry)
    // Small entries (the proof) are folded into the header around them; large ones stay views.
    if (isSmall(entry)) {
      bytes.set(entry.data, at)
      at += entry.data.length
    } else {
      parts.push(bytes.subarray(partStart, at), entry.data)
      partStart = at
    }
  }
  at = writeCentralDirectory(bytes, view, at, placed)
  parts.push(bytes.subarray(partStart, at))
  return parts
}

/** Entries up to this size are copied into the surrounding header part (fewer, larger writes). */
const SMALL_ENTRY = 64 * 1024
const isSmall = (entry: StoredEntry) => entry.data.length <= SMALL_ENTRY

/** The CRC-32 and entry of `data` named `name`. */
export const storedEntry = (name: string, data: Uint8Array, crc32: Crc32): StoredEntry => ({ name, data, crc: crc32(data) })
