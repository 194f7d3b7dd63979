/**
 * Any other media type: a package artifact, a deterministic ZIP (stored, not compressed; every
 * entry dated 1980-01-01T00:00:00, the ZIP epoch) holding `cairn-proof.json` and the original file
 * as `payload/<file name>`. stored-zip.ts writes it with the payload as a view; fflate reads any
 * ZIP that is not laid out exactly so.
 */
import { unzipSync } from 'fflate'
import { concatBytes, latin1, utf8Text } from '../bytes.js'
import { jsCrc32 } from '../crc32.js'
import type { Carrier, EmbedOptions, Extraction } from './carrier.js'
import { isStoredZip, storedEntry, storedZipParts, type StoredEntry } from './stored-zip.js'

export const ZIP_PROOF_ENTRY = 'cairn-proof.json'
export const ZIP_PAYLOAD_FOLDER = 'payload/'

/** The entry name of the payload: the file name's last path segment, without control characters. */
export function payloadEntryName(fileName: string): string {
  const base = fileName.split(/[\\/]/u).pop()?.replace(/[\u0000-\u001f\u007f]/gu, '') ?? ''
  return ZIP_PAYLOAD_FOLDER + (base === '' || base === '.' || base === '..' ? 'payload.bin' : base)
}

export const zipCarrier: Carrier = {
  name: 'zip',
  checksumsPayload: true,
  recognises: (bytes) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04,
  problem: () => undefined,
  embed: (payload, proofBytes, fileName) => concatBytes(...zipCarrier.embedParts(payload, proofBytes, fileName)),
  embedParts: (payload, proofBytes, fileName, options = {}) => storedZipParts(sealedEntries(payload, proofBytes, fileName, options)),
  isEmbedding: (sealed, payload, proofBytes, fileName, options = {}) => isStoredZip(sealed, sealedEntries(payload, proofBytes, fileName, options)),
  extract(sealed): Extraction {
    const exact = exactPackage(sealed)
    if (exact) return { kind: 'sealed', payloadParts: [exact.payload], proofBytes: exact.proofBytes }
    let entries: Record<string, Uint8Array>
    try {
      entries = unzipSync(sealed)
    } catch (error) {
      return { kind: 'malformed', error: `The ZIP package does not open: ${(error as Error).message}` }
    }
    const names = Object.keys(entries)
    const proofBytes = entries[ZIP_PROOF_ENTRY]
    if (!proofBytes) return { kind: 'unsealed' }
    const payloads = names.filter((name) => name.startsWith(ZIP_PAYLOAD_FOLDER))
    if (names.filter((name) => name.endsWith(ZIP_PROOF_ENTRY)).length > 1) return { kind: 'multiple', error: 'The ZIP package holds more than one proof' }
    if (payloads.length !== 1 || names.length !== 2) return { kind: 'malformed', error: `A package artifact holds exactly ${ZIP_PROOF_ENTRY} and one file under ${ZIP_PAYLOAD_FOLDER}` }
    return { kind: 'sealed', payloadParts: [entries[payloads[0]!]!], proofBytes }
  },
}

interface ReadEntry {
  readonly name: string
  readonly data: Uint8Array
  readonly crc: number
  readonly end: number
}

/** The stored entry whose local header starts at `at`, read from the local header alone. */
function entryAt(bytes: Uint8Array, view: DataView, at: number): ReadEntry | undefined {
  if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) return undefined
  const size = view.getUint32(at + 18, true)
  const nameEnd = at + 30 + view.getUint16(at + 26, true)
  const end = nameEnd + size
  if (end > bytes.length) return undefined
  const nameBytes = bytes.subarray(at + 30, nameEnd)
  const name = view.getUint16(at + 6, true) & 0x0800 ? utf8Text(nameBytes) : latin1(nameBytes)
  return name === undefined ? undefined : { name, data: bytes.subarray(nameEnd, end), crc: view.getUint32(at + 14, true), end }
}

/**
 * The proof and payload, as views, of a package whose every header byte is what sealing writes
 * for these two entries and the CRCs their headers record (whether those CRCs are right is the
 * exactness check's business). Such a file reads the same in fflate, so it is classified as
 * fflate would; anything else (an unrelated ZIP, a reordered or extended package) goes to fflate.
 */
function exactPackage(bytes: Uint8Array): { readonly proofBytes: Uint8Array; readonly payload: Uint8Array } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const proof = entryAt(bytes, view, 0)
  if (proof?.name !== ZIP_PROOF_ENTRY) return undefined
  const payload = entryAt(bytes, view, proof.end)
  if (!payload?.name.startsWith(ZIP_PAYLOAD_FOLDER) || payload.name.endsWith(ZIP_PROOF_ENTRY)) return undefined
  let exact: boolean
  try {
    exact = isStoredZip(bytes, [proof, payload])
  } catch {
    return undefined
  }
  return exact ? { proofBytes: proof.data, payload: payload.data } : undefined
}

/** The package's two entries as sealing writes them for this proof, payload and file name. */
function sealedEntries(payload: Uint8Array, proofBytes: Uint8Array, fileName: string, options: EmbedOptions): StoredEntry[] {
  const crc32 = options.crc32 ?? jsCrc32
  return [storedEntry(ZIP_PROOF_ENTRY, proofBytes, crc32), { name: payloadEntryName(fileName), data: payload, crc: options.payloadCrc32 ?? crc32(payload) }]
}
