/**
 * SVG: the proof is a `<metadata id="cairn-proof">` element holding the proof's base64url text,
 * inserted immediately before the last `</svg>`. Renderers ignore metadata, so the image is unchanged.
 */
import { concatBytes, fromBase64Url, indexOfBytes, lastIndexOfBytes, toBase64Url, utf8 } from '../bytes.js'
import { embedAtInsertionPoint, partsAtInsertionPoint, type Carrier, type Extraction } from './carrier.js'

const OPEN = utf8('<metadata id="cairn-proof">')
const CLOSE = utf8('</metadata>')
const SVG_OPEN = utf8('<svg')
const SVG_CLOSE = utf8('</svg>')

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
  extract(sealed): Extraction {
    const start = indexOfBytes(sealed, OPEN)
    if (start === -1) return { kind: 'unsealed' }
    if (indexOfBytes(sealed, OPEN, start + 1) !== -1) return { kind: 'multiple', error: 'The SVG holds more than one cairn-proof metadata element; a sealed file holds exactly one' }
    const end = indexOfBytes(sealed, CLOSE, start + OPEN.length)
    if (end === -1) return { kind: 'malformed', error: 'The SVG cairn-proof metadata element is not closed' }
    const proofBytes = fromBase64Url(new TextDecoder().decode(sealed.subarray(start + OPEN.length, end)))
    if (!proofBytes) return { kind: 'malformed', error: 'The SVG cairn-proof metadata element does not hold base64url text' }
    return { kind: 'sealed', payloadParts: [sealed.subarray(0, start), sealed.subarray(end + CLOSE.length)], proofBytes, seam: { start, end: end + CLOSE.length } }
  },
}
