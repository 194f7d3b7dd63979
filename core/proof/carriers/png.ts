/**
 * PNG: the proof is the data of one private ancillary chunk `caIR` placed immediately before
 * `IEND`. `caIR` is ancillary (decoders that do not know it skip it), private, and unsafe to copy
 * (an editor that changes the image must drop it, since the proof no longer holds).
 */
import { concatBytes, latin1 } from '../bytes.js'
import { crc32 } from '../crc32.js'
import { embedAtInsertionPoint, partsAtInsertionPoint, type Carrier, type Extraction } from './carrier.js'

export const PNG_PROOF_CHUNK = 'caIR'
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const CHUNK_TYPE = new TextEncoder().encode(PNG_PROOF_CHUNK)

export interface Chunk {
  readonly type: string
  readonly start: number
  readonly end: number
  readonly data: Uint8Array
  readonly crc: number
}

/** A chunk found by walking: its data view is made when read (a large image has hundreds of chunks, few of them read). */
class WalkedChunk implements Chunk {
  constructor(
    private readonly bytes: Uint8Array,
    readonly type: string,
    readonly start: number,
    readonly end: number,
    readonly crc: number,
  ) {}

  get data(): Uint8Array {
    return this.bytes.subarray(this.start + 8, this.end - 4)
  }
}

/** The chunks of a PNG up to IEND, or why it cannot be read. */
export function chunksOf(bytes: Uint8Array): Chunk[] | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const chunks: Chunk[] = []
  let at = SIGNATURE.length
  for (;;) {
    if (at + 12 > bytes.length) return 'The PNG is truncated: it ends before its IEND chunk'
    const length = view.getUint32(at)
    const end = at + 12 + length
    if (end > bytes.length) return 'The PNG is truncated: a chunk runs past the end of the file'
    // Checked and named from the four bytes directly: a large image has a chunk every 8–64 KiB.
    if (!isLetter(bytes[at + 4]!) || !isLetter(bytes[at + 5]!) || !isLetter(bytes[at + 6]!) || !isLetter(bytes[at + 7]!)) return 'The PNG is malformed: a chunk type is not four letters'
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!)
    chunks.push(new WalkedChunk(bytes, type, at, end, view.getUint32(end - 4)))
    at = end
    if (type === 'IEND') return chunks
  }
}

/** A-Z or a-z. */
const isLetter = (byte: number) => (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a

function chunkBytes(data: Uint8Array): Uint8Array {
  const header = new Uint8Array(8)
  new DataView(header.buffer).setUint32(0, data.length)
  header.set(CHUNK_TYPE, 4)
  const trailer = new Uint8Array(4)
  new DataView(trailer.buffer).setUint32(0, crc32(CHUNK_TYPE, data))
  return concatBytes(header, data, trailer)
}

export const pngCarrier: Carrier = {
  name: 'png',
  recognises: (bytes) => bytes.length >= 8 && SIGNATURE.every((byte, i) => bytes[i] === byte),
  problem(payload) {
    const chunks = chunksOf(payload)
    return typeof chunks === 'string' ? chunks : undefined
  },
  insertionPoint(payload) {
    const chunks = chunksOf(payload)
    if (typeof chunks === 'string') throw new RangeError(chunks)
    return chunks[chunks.length - 1]!.start
  },
  seamBytes: (_prefix, proofBytes) => chunkBytes(proofBytes),
  atSeam: (_prefix, suffix) => suffix.length >= 12 && latin1(suffix.subarray(4, 8)) === 'IEND',
  embed: (payload, proofBytes) => embedAtInsertionPoint(pngCarrier, payload, proofBytes),
  embedParts: (payload, proofBytes, _fileName, options) => partsAtInsertionPoint(pngCarrier, payload, proofBytes, options),
  survey(payload) {
    const chunks = chunksOf(payload)
    if (typeof chunks === 'string') return { sealed: false, problem: chunks }
    const { kind } = extractFrom(payload, chunks)
    return { sealed: kind === 'sealed' || kind === 'multiple', insertionPoint: chunks[chunks.length - 1]!.start }
  },
  extract(sealed): Extraction {
    const chunks = chunksOf(sealed)
    return typeof chunks === 'string' ? { kind: 'malformed', error: chunks } : extractFrom(sealed, chunks)
  },
}

/** `extract`, given the chunks already walked. */
function extractFrom(sealed: Uint8Array, chunks: readonly Chunk[]): Extraction {
  const proofs = chunks.filter((chunk) => chunk.type === PNG_PROOF_CHUNK)
  if (proofs.length === 0) return { kind: 'unsealed' }
  if (proofs.length > 1) return { kind: 'multiple', error: `The PNG holds ${proofs.length} ${PNG_PROOF_CHUNK} proof chunks; a sealed file holds exactly one` }
  const proof = proofs[0]!
  if (crc32(CHUNK_TYPE, proof.data) !== proof.crc) return { kind: 'malformed', error: `The PNG's ${PNG_PROOF_CHUNK} proof chunk fails its CRC` }
  return { kind: 'sealed', payloadParts: [sealed.subarray(0, proof.start), sealed.subarray(proof.end)], proofBytes: proof.data, seam: { start: proof.start, end: proof.end } }
}
