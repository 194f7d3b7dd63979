/**
 * The package artifact's exact bytes, written here rather than by fflate's `zipSync` so the
 * payload is never copied: a sealed package is `[head, payload, tail]`, where the payload is the
 * caller's own bytes and head and tail are small. The layout is byte for byte what
 * `zipSync(…, { level: 0, mtime: ZIP_EPOCH })` wrote for the two entries (the golden vectors pin
 * it): stored entries, version 2.0, no extra fields, no comments, DOS date 1980-01-01 00:00, the
 * UTF-8 flag only on names that are not ASCII.
 */
import { concatBytes, utf8 } from '../bytes.js'
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
    const placed = { ...entry, nameBytes, flags: nameBytes.length !== entry.name.length ? UTF8_NAME_FLAG : 0, offset }
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

function localHeader(entry: PlacedEntry): Uint8Array {
  const bytes = new Uint8Array(LOCAL_HEADER_LENGTH + entry.nameBytes.length)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, LOCAL_HEADER, true)
  writeCommon(view, 4, entry)
  bytes.set(entry.nameBytes, LOCAL_HEADER_LENGTH)
  return bytes
}

function centralDirectory(entries: readonly PlacedEntry[]): Uint8Array {
  const length = entries.reduce((sum, entry) => sum + CENTRAL_HEADER_LENGTH + entry.nameBytes.length, 0)
  const start = entries.length === 0 ? 0 : entries.at(-1)!.offset + LOCAL_HEADER_LENGTH + entries.at(-1)!.nameBytes.length + entries.at(-1)!.data.length
  const bytes = new Uint8Array(length + END_LENGTH)
  const view = new DataView(bytes.buffer)
  let at = 0
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
  return bytes
}

/**
 * The archive as consecutive parts: every entry's data is its own part (the caller's array, not
 * a copy); everything between is freshly written header bytes.
 */
export function storedZipParts(entries: readonly StoredEntry[]): Uint8Array[] {
  const placed = place(entries)
  const parts: Uint8Array[] = []
  let pending: Uint8Array[] = []
  for (const entry of placed) {
    pending.push(localHeader(entry))
    // Small entries (the proof) are folded into the header around them; large ones stay views.
    if (entry.data.length <= SMALL_ENTRY) pending.push(entry.data)
    else {
      parts.push(concatBytes(...pending), entry.data)
      pending = []
    }
  }
  parts.push(concatBytes(...pending, centralDirectory(placed)))
  return parts
}

/** Entries up to this size are copied into the surrounding header part (fewer, larger writes). */
const SMALL_ENTRY = 64 * 1024

/** The CRC-32 and entry of `data` named `name`. */
export const storedEntry = (name: string, data: Uint8Array, crc32: Crc32): StoredEntry => ({ name, data, crc: crc32(data) })
