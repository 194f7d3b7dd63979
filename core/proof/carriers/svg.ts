/**
 * SVG: the proof is a `<metadata id="cairn-proof">` element holding the proof's base64url text,
 * inserted immediately before the last `</svg>`. Renderers ignore metadata, so the image is unchanged.
 * A sealed file holds exactly one such element: any other occurrence of its opening tag is a second proof.
 */
import { concatBytes, fromBase64Url, indexOfBytes, lastIndexOfBytes, toBase64Url, utf8 } from '../bytes.js'
import { embedAtInsertionPoint, partsAtInsertionPoint, type Carrier, type Extraction } from './carrier.js'

const OPEN = utf8('<metadata id="cairn-proof">')
const CLOSE = utf8('</metadata>')
const SVG_OPEN = utf8('<svg')
const SVG_CLOSE = utf8('</svg>')
const MULTIPLE = { kind: 'multiple', error: 'The SVG holds more than one cairn-proof metadata element; a sealed file holds exactly one' } as const

function lastSvgClose(bytes: Uint8Array): number {
  return lastIndexOfBytes(bytes, SVG_CLOSE)
}

export const svgCarrier: Carrier = {
  name: 'svg',
  recognises: (bytes) => {
    const open = indexOfBytes(bytes.subarray(0, 4096), SVG_OPEN)
    return open !== -1 && lastSvgClose(bytes) > open
  },
  problem: (payload) => (svgCarrier.recognises(payload) ? undefined : 'The SVG has no <svg> element closed by </svg>'),
  insertionPoint(payload) {
    const close = lastSvgClose(payload)
    if (close === -1) throw new RangeError('The SVG has no closing </svg>')
    return close
  },
  seamBytes: (_prefix, proofBytes) => concatBytes(OPEN, utf8(toBase64Url(proofBytes)), CLOSE),
  atSeam: (_prefix, suffix) => lastSvgClose(suffix) === 0,
  embed: (payload, proofBytes) => embedAtInsertionPoint(svgCarrier, payload, proofBytes),
  embedParts: (payload, proofBytes, _fileName, options) => partsAtInsertionPoint(svgCarrier, payload, proofBytes, options),
  proofMarker: OPEN,
  extract(sealed, options = {}): Extraction {
    // Found from the end: sealing puts the proof just before the last </svg>, so only the tail is read.
    const start = lastIndexOfBytes(sealed, OPEN)
    if (start === -1) return { kind: 'unsealed' }
    const element = elementAt(sealed, start)
    // Any other proof element lies wholly before this last one: two never overlap, as '<' opens the marker and is nowhere else in it.
    // Those bytes are the first payload part, which a caller that defers searches as it hashes them.
    if (!options.deferPayloadSearch || element.kind !== 'sealed') return indexOfBytes(sealed.subarray(0, start), OPEN) !== -1 ? MULTIPLE : element
    return { ...element, payloadUnsearched: { marker: OPEN, error: MULTIPLE.error } }
  },
}

/** The proof element that starts at `start`, read as if it were the file's only one. */
function elementAt(sealed: Uint8Array, start: number): Extraction {
  const end = indexOfBytes(sealed, CLOSE, start + OPEN.length)
  if (end === -1) return { kind: 'malformed', error: 'The SVG cairn-proof metadata element is not closed' }
  const proofBytes = fromBase64Url(new TextDecoder().decode(sealed.subarray(start + OPEN.length, end)))
  if (!proofBytes) return { kind: 'malformed', error: 'The SVG cairn-proof metadata element does not hold base64url text' }
  return { kind: 'sealed', payloadParts: [sealed.subarray(0, start), sealed.subarray(end + CLOSE.length)], proofBytes, seam: { start, end: end + CLOSE.length } }
}
