/** The carriers, and which one a payload or a sealed file uses. */
import type { CarrierName } from '../format.js'
import type { Carrier } from './carrier.js'
import { jsonCarrier } from './json.js'
import { pdfCarrier } from './pdf.js'
import { pngCarrier } from './png.js'
import { svgCarrier } from './svg.js'
import { zipCarrier } from './zip.js'

export type { Carrier, Extraction } from './carrier.js'
export { PNG_PROOF_CHUNK } from './png.js'
export { JSON_PROOF_MEMBER } from './json.js'
export { ZIP_PROOF_ENTRY, payloadEntryName } from './zip.js'

export const carriers: Readonly<Record<CarrierName, Carrier>> = { png: pngCarrier, svg: svgCarrier, pdf: pdfCarrier, json: jsonCarrier, zip: zipCarrier }

/** Content decides first (magic bytes), then what the uploader said the file is. */
const ORDER: readonly Carrier[] = [pngCarrier, pdfCarrier, zipCarrier, jsonCarrier, svgCarrier]

/**
 * The carrier of a file to seal: PNG and PDF by their magic bytes, JSON when declared JSON (media
 * type or `.json`) and one object, SVG when declared SVG, anything else a ZIP package.
 */
export function carrierForPayload(bytes: Uint8Array, mediaType: string, fileName: string): Carrier {
  if (pngCarrier.recognises(bytes)) return pngCarrier
  if (pdfCarrier.recognises(bytes)) return pdfCarrier
  const type = mediaType.toLowerCase().split(';')[0]!.trim()
  const lower = fileName.toLowerCase()
  if ((type === 'application/json' || type.endsWith('+json') || lower.endsWith('.json')) && jsonCarrier.problem(bytes) === undefined) return jsonCarrier
  if ((type === 'image/svg+xml' || lower.endsWith('.svg')) && svgCarrier.recognises(bytes)) return svgCarrier
  return zipCarrier
}

/** The carrier a possibly sealed file is read with, judged by its content alone; undefined when none fits. */
export function carrierOfArtifact(bytes: Uint8Array): Carrier | undefined {
  return ORDER.find((carrier) => carrier.recognises(bytes))
}
