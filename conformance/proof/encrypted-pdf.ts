/**
 * A real encrypted PDF for tests: one page of Helvetica text, encrypted with the standard security
 * handler, revision 2 (ISO 32000-1 §7.6.3: 40-bit RC4, Algorithms 1–4) and an empty user password,
 * so any reader (poppler included) opens it. RC4 is written out here because OpenSSL 3 no longer
 * offers it; it only scrambles test bytes.
 */
import { createHash } from 'node:crypto'

/** §7.6.3.3 Algorithm 2's padding string. */
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex')
const PERMISSIONS = -44 // print and copy allowed; bits 7–8 and 13–32 set as R2 requires
const FILE_ID = Buffer.from('0123456789abcdef0123456789abcdef', 'hex')

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i)
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255
    ;[s[i], s[j]] = [s[j]!, s[i]!]
  }
  const out = Buffer.alloc(data.length)
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255
    j = (j + s[i]!) & 255
    ;[s[i], s[j]] = [s[j]!, s[i]!]
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!
  }
  return out
}

const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest()

/** The PDF's bytes, with `/Encrypt` (and `/ID`, which the key depends on) in its trailer. */
export function encryptedPdf(text: string): Uint8Array {
  const owner = rc4(md5(PAD).subarray(0, 5), PAD) // Algorithm 3, R2, owner password empty too
  const permissions = Buffer.alloc(4)
  permissions.writeInt32LE(PERMISSIONS)
  const fileKey = md5(PAD, owner, permissions, FILE_ID).subarray(0, 5) // Algorithm 2
  const user = rc4(fileKey, PAD) // Algorithm 4
  const objectKey = (number: number) => md5(fileKey, Buffer.from([number & 255, (number >> 8) & 255, number >> 16, 0, 0])).subarray(0, 10) // Algorithm 1
  const content = rc4(objectKey(4), Buffer.from(`BT /F1 18 Tf 20 50 Td (${text}) Tj ET`, 'latin1'))
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 100]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
    `<</Length ${content.length}>>\nstream\n${content.toString('latin1')}\nendstream`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
    `<</Filter/Standard/V 1/R 2/O<${owner.toString('hex')}>/U<${user.toString('hex')}>/P ${PERMISSIONS}>>`,
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((object, index) => {
    offsets.push(body.length)
    body += `${index + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`
  body += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R/Encrypt 6 0 R/ID[<${FILE_ID.toString('hex')}><${FILE_ID.toString('hex')}>]>>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, 'latin1')
}
