/**
 * Issue 22 §7: a sealed PDF's update trailer repeats every entry of the previous trailer but
 * `/Prev` (ISO 32000-1 §7.5.6), so `/Info` and `/ID` survive sealing — read back by pdf-lib and,
 * where installed, poppler (`pdfinfo`, `pdftotext`); PDFs sealed before that still verify; an
 * encrypted PDF is refused with 400 over HTTP, before anything is signed or stored.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { PDFArray, PDFDocument, PDFHexString } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countingStore } from '../../../conformance/support/counting-store.js'
import { encryptedPdf } from '../../../conformance/proof/encrypted-pdf.js'
import { createSealer } from '../../../conformance/proof/sealer.js'
import { startHttpServer, type RunningServer } from '../../../hosts/http/start-http-server.js'
import { pinnedOptions } from '../../../hosts/http/test-support.js'
import { createCairn, type Cairn } from '../../../hosts/library/create-cairn.js'
import { concatBytes, latin1 } from '../bytes.js'
import { openArtifact, unseal } from '../open-artifact.js'
import { prepareSeal } from '../seal.js'
import { verifyArtifact } from '../verify.js'
import { pdfCarrier } from './pdf.js'
import { dictionaryEntries } from './pdf-dictionary.js'

const ID = ['00112233445566778899aabbccddeeff', 'ffeeddccbbaa99887766554433221100']

/** A two-page pdf-lib document with a title and author (`/Info`) and a file identifier (`/ID`). */
async function documentWithInfoAndId(useObjectStreams: boolean): Promise<Uint8Array> {
  const document = await PDFDocument.create()
  document.setTitle('Quarterly report')
  document.setAuthor('Ada Lovelace')
  document.addPage([300, 100]).drawText('sealed text', { x: 10, y: 50 })
  document.addPage([300, 100])
  document.context.trailerInfo.ID = PDFArray.withContext(document.context)
  for (const half of ID) (document.context.trailerInfo.ID as PDFArray).push(PDFHexString.of(half))
  return document.save({ useObjectStreams })
}

/** The entries of the file's last trailer dictionary (a classic trailer: the one sealing writes). */
function lastTrailer(bytes: Uint8Array): Record<string, string> {
  const text = latin1(bytes)
  const dictionary = text.slice(text.lastIndexOf('trailer'))
  return Object.fromEntries(dictionaryEntries(dictionary, dictionary.indexOf('<<'))!.map((entry) => [entry.key, entry.value]))
}

const poppler = (() => {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    console.warn("poppler's checks of sealed PDFs skipped: pdfinfo is not installed (Debian: poppler-utils; .ci/run installs it)")
    return false
  }
})()
const dir = mkdtempSync(join(tmpdir(), 'cairn-pdf-trailer-'))
function popplerRead(bytes: Uint8Array, name: string): { info: string; text: string } {
  const file = join(dir, name)
  writeFileSync(file, bytes)
  return { info: execFileSync('pdfinfo', [file], { encoding: 'utf8' }), text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }) }
}

describe('the trailer of a sealed PDF', () => {
  it.each([['classic cross-reference table', false], ['cross-reference stream', true]] as const)('repeats /Info and /ID after a %s, and pdf-lib reads the title back', async (_name, useObjectStreams) => {
    const { seal, trust } = await createSealer()
    const original = await documentWithInfoAndId(useObjectStreams)
    const sealed = await seal(original, 'report.pdf', 'application/pdf')
    const trailer = lastTrailer(sealed.bytes)
    expect(trailer.ID?.replace(/\s+/gu, '')).toBe(`[<${ID[0]}><${ID[1]}>]`)
    expect(trailer.Info).toMatch(/^\d+ 0 R$/u)
    expect(Object.keys(trailer).sort()).toEqual(['ID', 'Info', 'Prev', 'Root', 'Size'])
    const reopened = await PDFDocument.load(sealed.bytes, { updateMetadata: false })
    expect([reopened.getTitle(), reopened.getAuthor(), reopened.getPageCount()]).toEqual(['Quarterly report', 'Ada Lovelace', 2])
    expect(unseal(sealed.bytes)).toEqual(original)
    expect((await verifyArtifact(sealed.bytes, trust)).ok).toBe(true)
  })

  it.skipIf(!poppler)('poppler reads the same title, pages and text from the sealed file as from the original', async () => {
    const { seal } = await createSealer()
    const original = await documentWithInfoAndId(false)
    const sealed = await seal(original, 'report.pdf', 'application/pdf')
    const before = popplerRead(original, 'original.pdf')
    const after = popplerRead(sealed.bytes, 'sealed.pdf')
    expect(after.info).toMatch(/^Title:\s+Quarterly report$/mu)
    expect(after.info).toMatch(/^Author:\s+Ada Lovelace$/mu)
    expect(after.info).toMatch(/^Pages:\s+2$/mu)
    expect(after.text).toBe(before.text)
    expect(after.text).toContain('sealed text')
  })

  it('a PDF sealed before the trailer repeated its entries (only /Size /Root /Prev) still verifies, and nothing else may sit in its seam', async () => {
    const { seal, trust } = await createSealer()
    const sealed = await seal(await documentWithInfoAndId(false), 'report.pdf', 'application/pdf')
    const opened = openArtifact(sealed.bytes)
    if (E.isLeft(opened)) throw new Error(opened.left.error)
    const { payload, proofBytes } = opened.right
    const earlier = concatBytes(payload, pdfCarrier.earlierSeamBytes!(payload, proofBytes))
    expect(Object.keys(lastTrailer(earlier)).sort()).toEqual(['Prev', 'Root', 'Size'])
    expect((await verifyArtifact(earlier, trust)).ok).toBe(true)
    const text = latin1(earlier)
    const withExtra = text.replace(/\/Prev (\d+)>>\nstartxref/u, '/Prev $1/Extra 1>>\nstartxref')
    expect((await verifyArtifact(Uint8Array.from(withExtra, (char) => char.charCodeAt(0)), trust)).ok).toBe(false)
  })
})

describe('an encrypted PDF', () => {
  const counted = countingStore()
  let cairn: Cairn
  let server: RunningServer
  beforeAll(async () => {
    cairn = createCairn(pinnedOptions({ store: counted.store, logIntegration: false, sweep: false }))
    server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await server.close()
    await cairn.close()
  })

  it.skipIf(!poppler)('is a real encrypted PDF poppler opens', () => {
    const read = popplerRead(encryptedPdf('secret page'), 'encrypted.pdf')
    expect(read.info).toMatch(/^Encrypted:\s+yes/mu)
    expect(read.text).toContain('secret page')
  })

  it('is refused before anything is signed, in-process', () => {
    const refused = prepareSeal({
      payload: encryptedPdf('x'), mediaType: 'application/pdf', fileName: 'e.pdf', sealKind: 'integrity-seal',
      code: '0'.repeat(20), slug: 'e', baseUrl: 'https://cairn.example', logOrigin: 'cairn.example/log', createdAtMs: 0,
    })
    expect(refused).toEqual(E.left(expect.stringMatching(/^The PDF is encrypted: /u)))
  })

  it('is refused over HTTP with 400 in the error shape, nothing committed', async () => {
    await cairn.ready
    const before = counted.commits()
    const form = new FormData()
    form.append('file', new Blob([encryptedPdf('secret page') as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'secret.pdf')
    const response = await fetch(`${server.url}/api/document-seal`, { method: 'POST', body: form })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, error: expect.stringMatching(/^The PDF is encrypted: .*Remove the encryption/u) })
    expect(counted.commits()).toBe(before)
  })
})

describe('PDF dictionary entries', () => {
  it('keeps each value\'s exact text: references, strings with parentheses and escapes, hex strings, nested arrays and dictionaries, comments between tokens', () => {
    const text = '<< /Size 9 /Root 1 0 R%c\n/Info 12 3 R /ID [<AB> (a\\)b(c)d)] /Meta <</A [1 [2 <</B (>>)>>]] /C /D>> /N null /K 5 >>'
    expect(dictionaryEntries(text, 0)).toEqual([
      { key: 'Size', value: '9' }, { key: 'Root', value: '1 0 R' }, { key: 'Info', value: '12 3 R' }, { key: 'ID', value: '[<AB> (a\\)b(c)d)]' },
      { key: 'Meta', value: '<</A [1 [2 <</B (>>)>>]] /C /D>>' }, { key: 'N', value: 'null' }, { key: 'K', value: '5' },
    ])
  })

  it('answers undefined for a dictionary that is not well formed, and walks hostile nesting without recursion', () => {
    for (const bad of ['<</A>>', '<</A [1 2>>', '<</A (open>>', '<<A 1>>', '<</A 1', '/A 1>>', '<</A ]>>']) expect(dictionaryEntries(bad, 0), bad).toBeUndefined()
    const deep = `<</A ${'['.repeat(100_000)}${']'.repeat(100_000)}>>`
    expect(dictionaryEntries(deep, 0)).toHaveLength(1)
  })
})
