/** Random payloads of every carrier, for property tests: each is a structurally valid file of its kind. */
import fc from 'fast-check'
import { crc32 } from '../../core/proof/crc32.js'

const encoder = new TextEncoder()

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(encoder.encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(encoder.encode(type), data))
  return out
}

export function pngFile(idats: readonly Uint8Array[], trailing: Uint8Array = new Uint8Array()): Uint8Array {
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])), ...idats.map((data) => pngChunk('IDAT', data)), pngChunk('IEND', new Uint8Array()), trailing]
  return concat(parts)
}

/** A minimal PDF with a classic cross-reference table (`body` lands inside a comment-free stream). */
export function pdfFile(body: Uint8Array, finalNewline = true): Uint8Array {
  const head = encoder.encode('%PDF-1.4\n1 0 obj\n<</Type/Catalog>>\nendobj\n2 0 obj\n<</Length ' + body.length + '>>\nstream\n')
  const mid = encoder.encode('\nendstream\nendobj\n')
  const xrefAt = head.length + body.length + mid.length
  const tail = encoder.encode(`xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000043 00000 n \ntrailer\n<</Size 3/Root 1 0 R>>\nstartxref\n${xrefAt}\n%%EOF${finalNewline ? '\n' : ''}`)
  return concat([head, body, mid, tail])
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export interface PayloadCase {
  readonly bytes: Uint8Array
  readonly filename: string
  readonly mimeType: string
}

const bytes = (max: number) => fc.uint8Array({ minLength: 0, maxLength: max })

export const payloadArbitraries: Readonly<Record<'png' | 'svg' | 'pdf' | 'json' | 'zip', fc.Arbitrary<PayloadCase>>> = {
  png: fc.tuple(fc.array(bytes(300), { maxLength: 4 }), fc.boolean()).map(([idats, trailing]) => ({
    bytes: pngFile(idats, trailing ? encoder.encode('after IEND') : new Uint8Array()), filename: 'image.png', mimeType: 'image/png',
  })),
  svg: fc.tuple(fc.string({ maxLength: 200 }), fc.constantFrom('', '\n', '  \r\n')).map(([text, after]) => ({
    bytes: encoder.encode(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><text>${text.replace(/[<&]/gu, '_')}</text></svg>${after}`),
    filename: 'drawing.svg',
    mimeType: 'image/svg+xml',
  })),
  pdf: fc.tuple(bytes(400), fc.boolean()).map(([body, newline]) => ({ bytes: pdfFile(body, newline), filename: 'paper.pdf', mimeType: 'application/pdf' })),
  json: fc.tuple(
    fc.dictionary(fc.string({ maxLength: 8 }).filter((key) => key !== 'cairnProof' && key !== '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
    fc.constantFrom(undefined, 2, '\t'),
    fc.constantFrom('', '\n', ' \n '),
  ).map(([object, indent, around]) => ({ bytes: encoder.encode(`${around}${JSON.stringify(object, null, indent)}${around}`), filename: 'data.json', mimeType: 'application/json' })),
  zip: fc.tuple(bytes(600), fc.constantFrom('notes.txt', 'a/b/../c.bin', '', 'song.mp3')).map(([payload, filename]) => ({
    bytes: payload.length === 0 ? new Uint8Array([1]) : payload,
    filename,
    mimeType: 'application/octet-stream',
  })),
}
