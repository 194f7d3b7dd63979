/**
 * PDF: the proof is appended as an incremental update (ISO 32000-1 §7.5.6): after the original
 * bytes, one new object `<N> 0 obj <</Type/CairnProof/Length L>> stream …proof… endstream endobj`,
 * a cross-reference section for that object alone, and a trailer whose `/Prev` points at the
 * original cross-reference and which repeats every other entry of the previous trailer (`/Root`,
 * `/Info`, `/ID`…), as §7.5.6 requires. Readers open the document exactly as before; the proof
 * object is not referenced from the page tree, so nothing renders. Encrypted PDFs are refused: a
 * reader would decrypt the proof object too, and an update cannot drop `/Encrypt`.
 *
 * Layout (ASCII, `\n` line ends; <proof> is the proof's canonical JSON bytes; <carried> the
 * previous trailer's other entries, each ` /Key value` with the value's exact source bytes):
 *   <original>\n<N> 0 obj\n<</Type/CairnProof/Length <L>>>\nstream\n<proof>\nendstream\nendobj\n
 *   xref\n<N> 1\n<10-digit offset> 00000 n \ntrailer\n<</Size <N+1>/Root <root>/Prev <prev><carried>>>\n
 *   startxref\n<xref offset>\n%%EOF\n
 * Files sealed before the trailer repeated its entries (no <carried>) verify unchanged.
 */
import { concatBytes, indexOfBytes, lastIndexOfBytes, latin1, latin1Bytes, utf8 } from '../bytes.js'
import { embedAtInsertionPoint, partsAtInsertionPoint, type Carrier, type Extraction } from './carrier.js'
import { dictionaryEntries } from './pdf-dictionary.js'

const TYPE_MARK = utf8('/Type/CairnProof')
const EOF_MARK = utf8('%%EOF')
const STARTXREF = utf8('startxref')
const TAIL_WINDOW = 2048
/** How far past startxref the trailer dictionary is looked for (a classic table of ~200,000 objects). */
const MAX_SECTION_SCAN = 4 << 20

interface Trailer {
  readonly size: number
  readonly root: string
  readonly prev: number
  /**
   * The previous trailer's other entries as the update repeats them (` /Info 5 0 R /ID […]`), or
   * why they cannot be repeated (an unreadable dictionary, an encrypted file).
   */
  readonly carried: { readonly text: string } | { readonly problem: string }
}

/** Entries the update writes itself (`Size`, `Root`, `Prev`) or that describe only their own section (§7.5.8.4 `XRefStm`). */
const WRITTEN_OR_SECTION_ONLY = new Set(['Size', 'Root', 'Prev', 'XRefStm'])
/** A cross-reference stream's own entries (§7.5.8.2, Table 17, and §7.3.8.2 stream entries): not trailer entries. */
const XREF_STREAM_ONLY = new Set(['Type', 'W', 'Index', 'Length', 'Filter', 'DecodeParms', 'F', 'FFilter', 'FDecodeParms', 'DL'])

/** The last `startxref` offset and the /Size and /Root of the section it points at. */
function trailerOf(bytes: Uint8Array): Trailer | string {
  if (latin1(bytes.subarray(0, 5)) !== '%PDF-') return 'The PDF does not start with %PDF-'
  const eof = lastIndexOfBytes(bytes, EOF_MARK)
  if (eof === -1 || !/^[\r\n]*$/u.test(latin1(bytes.subarray(eof + EOF_MARK.length)))) return 'The PDF is truncated: it does not end with %%EOF'
  // Only the window's last `startxref` can be followed by nothing but an offset to %%EOF, so the
  // pattern is tried from there: the same answer as over the whole window, without its text.
  const window = bytes.subarray(Math.max(0, eof - TAIL_WINDOW), eof)
  const last = lastIndexOfBytes(window, STARTXREF)
  const startxref = last === -1 ? null : /^startxref\s+(\d+)\s*$/u.exec(latin1(window.subarray(last)))
  if (!startxref) return 'The PDF is truncated: no startxref before %%EOF'
  const prev = Number(startxref[1])
  if (!Number.isSafeInteger(prev) || prev >= bytes.length) return 'The PDF is malformed: startxref points past the end of the file'
  // The section at `prev` is a classic table with its trailer, or a cross-reference stream whose dictionary carries the same keys.
  const section = latin1(bytes.subarray(prev, Math.min(eof, prev + MAX_SECTION_SCAN)))
  const classic = section.startsWith('xref')
  const dictionary = classic ? section.slice(section.lastIndexOf('trailer')) : section.slice(0, Math.max(0, section.indexOf('stream')))
  const size = /\/Size\s+(\d+)/u.exec(dictionary)
  const root = /\/Root\s+(\d+\s+\d+\s+R)/u.exec(dictionary)
  if (!size || !root) return 'The PDF is malformed: its last cross-reference section names no /Size or /Root'
  return { size: Number(size[1]), root: root[1]!.replace(/\s+/gu, ' '), prev, carried: carriedEntries(dictionary, classic) }
}

/** What the update's trailer repeats of the previous one: every entry but those it writes or that are the section's own. */
function carriedEntries(dictionary: string, classic: boolean): Trailer['carried'] {
  const entries = dictionaryEntries(dictionary, dictionary.indexOf('<<'))
  if (!entries) return { problem: 'The PDF is malformed: its last trailer dictionary cannot be read' }
  if (entries.some((entry) => entry.key === 'Encrypt')) {
    return { problem: 'The PDF is encrypted: its proof cannot be added without breaking it for readers. Remove the encryption (or put the file in a ZIP archive) and seal again' }
  }
  const carried = entries.filter((entry) => !WRITTEN_OR_SECTION_ONLY.has(entry.key) && (classic || !XREF_STREAM_ONLY.has(entry.key)))
  return { text: carried.map((entry) => `/${entry.key} ${entry.value}`).join('') }
}

/** The update; `carried` is the previous trailer's repeated entries ('' for the seam sealing wrote before it repeated them). */
function updateBytes(payloadLength: number, trailer: Trailer, proofBytes: Uint8Array, carried: string): Uint8Array {
  const objectOffset = payloadLength + 1
  const head = utf8(`\n${trailer.size} 0 obj\n<</Type/CairnProof/Length ${proofBytes.length}>>\nstream\n`)
  const middle = utf8('\nendstream\nendobj\n')
  const xrefOffset = objectOffset + head.length - 1 + proofBytes.length + middle.length
  // Latin-1: the carried values are the original's bytes, one character each (binary strings included).
  const xref = latin1Bytes(
    `xref\n${trailer.size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \ntrailer\n` +
      `<</Size ${trailer.size + 1}/Root ${trailer.root}/Prev ${trailer.prev}${carried}>>\nstartxref\n${xrefOffset}\n%%EOF\n`,
  )
  return concatBytes(head, proofBytes, middle, xref)
}

function readableTrailer(prefix: Uint8Array): Trailer {
  const trailer = trailerOf(prefix)
  if (typeof trailer === 'string') throw new RangeError(trailer)
  return trailer
}

/** The first reason `payload` cannot take a proof, from its trailer. */
function problemOf(trailer: Trailer | string): string | undefined {
  if (typeof trailer === 'string') return trailer
  return 'problem' in trailer.carried ? trailer.carried.problem : undefined
}

export const pdfCarrier: Carrier = {
  name: 'pdf',
  recognises: (bytes) => latin1(bytes.subarray(0, 5)) === '%PDF-',
  problem: (payload) => problemOf(trailerOf(payload)),
  insertionPoint: (payload) => payload.length,
  seamBytes(prefix, proofBytes) {
    const trailer = readableTrailer(prefix)
    if ('problem' in trailer.carried) throw new RangeError(trailer.carried.problem)
    return updateBytes(prefix.length, trailer, proofBytes, trailer.carried.text)
  },
  earlierSeamBytes: (prefix, proofBytes) => updateBytes(prefix.length, readableTrailer(prefix), proofBytes, ''),
  atSeam: (prefix, suffix) => suffix.length === 0 && typeof trailerOf(prefix) !== 'string',
  // One reading of the trailer answers all three (asked separately, sealing read it twice).
  survey(payload) {
    const trailer = trailerOf(payload)
    if (typeof trailer === 'string') return { sealed: false, problem: trailer }
    const sealed = typeof proofUpdateAt(payload, trailer) !== 'string'
    const problem = problemOf(trailer)
    return problem === undefined ? { sealed, insertionPoint: payload.length } : { sealed, problem }
  },
  embed: (payload, proofBytes) => embedAtInsertionPoint(pdfCarrier, payload, proofBytes),
  embedParts: (payload, proofBytes, _fileName, options) => partsAtInsertionPoint(pdfCarrier, payload, proofBytes, options),
  extract(sealed, options = {}): Extraction {
    const last = lastProofUpdate(sealed)
    if (typeof last !== 'string') {
      const payload = sealed.subarray(0, last.objectOffset - 1)
      if (typeof lastProofUpdate(payload) !== 'string') return { kind: 'multiple', error: 'The PDF holds more than one CairnProof update; a sealed file holds exactly one' }
      return { kind: 'sealed', payloadParts: [payload], proofBytes: last.proofBytes, seam: { start: last.objectOffset - 1, end: sealed.length } }
    }
    // No proof in the last update: a full scan tells "changed after sealing" from "never sealed" (only when asked: sealing needs neither).
    if (options.thorough === false || indexOfBytes(sealed, TYPE_MARK) === -1) return { kind: 'unsealed' }
    return { kind: 'malformed', error: last }
  },
}

/** The proof of the file's last incremental update, or why the last update is not a proof. Reads only the tail. */
function lastProofUpdate(bytes: Uint8Array): ProofUpdate | string {
  const trailer = trailerOf(bytes)
  return typeof trailer === 'string' ? trailer : proofUpdateAt(bytes, trailer)
}

interface ProofUpdate {
  readonly objectOffset: number
  readonly proofBytes: Uint8Array
}

/** `lastProofUpdate`, given the file's trailer already read. */
function proofUpdateAt(bytes: Uint8Array, trailer: Trailer): ProofUpdate | string {
  const entry = /^xref\n(\d+) 1\n(\d{10}) 00000 n \n/u.exec(latin1(bytes.subarray(trailer.prev, Math.min(bytes.length, trailer.prev + 64))))
  if (!entry) return 'The PDF was changed after it was sealed: its last update is not the proof'
  const objectOffset = Number(entry[2])
  const header = /^(\d+) 0 obj\n<<\/Type\/CairnProof\/Length (\d+)>>\nstream\n/u.exec(latin1(bytes.subarray(objectOffset, objectOffset + 96)))
  if (!header || header[1] !== entry[1] || objectOffset < 1) return 'The PDF was changed after it was sealed: its last update is not the proof'
  const start = objectOffset + header[0].length
  const length = Number(header[2])
  if (start + length > bytes.length) return 'The PDF proof object runs past the end of the file'
  return { objectOffset, proofBytes: bytes.subarray(start, start + length) }
}
