/**
 * The sealed proof object: unseal(seal(x)) = x for every carrier, the verdict of good, tampered
 * and malformed files, and every kind of bad input named in docs/proof-format.md.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PDFDocument } from 'pdf-lib'
import { unzipSync } from 'fflate'
import { createSealer, type Sealer } from '../../conformance/proof/sealer.js'
import { payloadArbitraries, pdfFile, pngFile } from '../../conformance/proof/payloads.js'
import { FixedKeyStore } from '../../conformance/proof/fixed-key-store.js'
import { canonicalJsonBytes } from '../digest/canonical-json.js'
import { sha256Hex } from '../digest/sha256.js'
import { carriers } from './carriers/index.js'
import { countersign } from './countersign.js'
import { fixedEd25519Key } from '../../conformance/proof/fixed-key-store.js'
import { openArtifact, unseal } from './open-artifact.js'
import { alreadySealed, prepareSeal } from './seal.js'
import { verifyArtifact } from './verify.js'
import * as E from 'fp-ts/lib/Either.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { fromBase64Url, toBase64Url } from './bytes.js'
import { crc32, crc32Hex } from './crc32.js'
import type { ProofObject } from './format.js'

const encoder = new TextEncoder()
let sealerPromise: Promise<Sealer> | undefined
const sealer = () => (sealerPromise ??= createSealer())

/** Re-embed a modified proof into the same payload, as a forger would. */
function withProof(sealed: Uint8Array, change: (proof: ProofObject) => unknown): Uint8Array {
  const opened = openArtifact(sealed)
  if (E.isLeft(opened)) throw new Error(opened.left.error)
  const proof = JSON.parse(JSON.stringify(opened.right.proof)) as ProofObject
  const changed = (change(proof) ?? proof) as ProofObject
  return opened.right.carrier.embed(opened.right.payload, canonicalJsonBytes(changed), opened.right.proof.statement.payload.fileName)
}

describe('sealed proof objects', () => {
  for (const [name, arbitrary] of Object.entries(payloadArbitraries)) {
    it(`${name}: unseal(seal(x)) = x byte for byte, the sealed file verifies, a second seal is refused`, async () => {
      const { seal, trust } = await sealer()
      await fc.assert(
        fc.asyncProperty(arbitrary, async (payload) => {
          const sealed = await seal(payload.bytes, payload.filename, payload.mimeType)
          expect(sealed.proof.statement.carrier).toBe(name)
          expect(unseal(sealed.bytes)).toEqual(payload.bytes)
          expect(sealed.sealedSha256).toBe(sha256Hex(sealed.bytes))
          expect(sealed.record.sha256).toBe(sha256Hex(payload.bytes))
          const verdict = await verifyArtifact(sealed.bytes, trust)
          expect(verdict.errors).toEqual([])
          expect(verdict).toMatchObject({ ok: true, kind: 'integrity-seal', sha256: sealed.record.sha256, byteLength: payload.bytes.length })
          await expect(seal(sealed.bytes, payload.filename, payload.mimeType)).rejects.toThrow(/already sealed/)
        }),
        { numRuns: 20 },
      )
    })
  }

  it('a flipped payload byte fails the payload digest in every carrier', async () => {
    const { seal, trust } = await sealer()
    const png = await seal(pngFile([encoder.encode('pixels')]), 'a.png', 'image/png')
    const tampered = png.bytes.slice()
    tampered[tampered.indexOf(0x70)] = 0x71 // the "p" of "pixels"
    const verdict = await verifyArtifact(tampered, trust)
    expect(verdict.ok).toBe(false)
    expect(verdict.errors.join()).toMatch(/^Payload digest/)
  })

  it('PDF readers open the sealed file as before: classic table and cross-reference stream', async () => {
    const { seal, trust } = await sealer()
    for (const useObjectStreams of [false, true]) {
      const document = await PDFDocument.create()
      document.addPage([200, 100]).drawText('sealed', { x: 10, y: 50 })
      document.addPage([200, 100])
      const original = await document.save({ useObjectStreams })
      const sealed = await seal(original, 'paper.pdf', 'application/pdf')
      const reopened = await PDFDocument.load(sealed.bytes)
      expect(reopened.getPageCount()).toBe(2)
      expect(unseal(sealed.bytes)).toEqual(original)
      expect((await verifyArtifact(sealed.bytes, trust)).ok).toBe(true)
    }
  })

  it('a package artifact is a ZIP any unzip reads: the proof and the original file', async () => {
    const { seal } = await sealer()
    const sealed = await seal(encoder.encode('plain text'), 'notes.txt', 'text/plain')
    const entries = unzipSync(sealed.bytes)
    expect(Object.keys(entries)).toEqual(['cairn-proof.json', 'payload/notes.txt'])
    expect(new TextDecoder().decode(entries['payload/notes.txt'])).toBe('plain text')
    expect(JSON.parse(new TextDecoder().decode(entries['cairn-proof.json'])).statement.payload.fileName).toBe('notes.txt')
  })

  it('a cairn.proof.v2 package signs its payload CRC-32; a header CRC other than the signed one is refused without reading the payload again', async () => {
    const { seal, trust } = await sealer()
    const sealed = await seal(encoder.encode('plain text'), 'notes.txt', 'text/plain')
    const { statement } = sealed.proof
    expect(statement.format).toBe('cairn.proof.v2')
    expect(statement.payload.crc32).toBe(crc32Hex(crc32(encoder.encode('plain text'))))
    const bytes = sealed.bytes
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const payloadHeader = 30 + view.getUint16(26, true) + view.getUint32(18, true)
    const directory = view.getUint32(bytes.length - 6, true)
    const payloadCentral = directory + 46 + view.getUint16(directory + 28, true)
    expect(view.getUint32(payloadHeader + 14, true)).toBe(Number.parseInt(statement.payload.crc32!, 16))
    // The local header's CRC, the central directory's, or both changed (the ZIP then consistent with itself).
    for (const fields of [[payloadHeader + 14], [payloadCentral + 16], [payloadHeader + 14, payloadCentral + 16]]) {
      const tampered = bytes.slice()
      const tamperedView = new DataView(tampered.buffer)
      for (const at of fields) tamperedView.setUint32(at, tamperedView.getUint32(at, true) ^ 1, true)
      expect((await verifyArtifact(tampered, trust)).errors, String(fields)).toEqual(['Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)'])
    }
    // A payload byte changed and the headers' CRC-32 rewritten to match: the signed CRC no longer does.
    const forged = bytes.slice()
    const forgedView = new DataView(forged.buffer)
    const dataStart = payloadHeader + 30 + view.getUint16(payloadHeader + 26, true)
    forged[dataStart] = forged[dataStart]! ^ 0x20
    const forgedCrc = crc32(forged.subarray(dataStart, dataStart + 10))
    forgedView.setUint32(payloadHeader + 14, forgedCrc, true)
    forgedView.setUint32(payloadCentral + 16, forgedCrc, true)
    expect(unzipSync(forged)['payload/notes.txt']).toEqual(encoder.encode('Plain text'))
    expect((await verifyArtifact(forged, trust)).errors).toEqual(['Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)'])
    // The signed CRC changed with the headers: the signature no longer covers the statement.
    const resigned = withProof(bytes, (proof) => {
      proof.statement.payload.crc32 = crc32Hex(forgedCrc)
    })
    expect((await verifyArtifact(resigned, trust)).errors[0]).toMatch(/^Malformed carrier|^Signature/)
    // A v2 package statement without its CRC-32 is not the v2 shape sealing writes.
    const unnamed = withProof(bytes, (proof) => {
      delete proof.statement.payload.crc32
    })
    expect((await verifyArtifact(unnamed, trust)).errors).toEqual(["Malformed carrier: a cairn.proof.v2 package statement must name the payload's CRC-32"])
  })

  it('a cairn.proof.v1 package (proof without a CRC-32) still verifies, its CRC computed; a changed CRC field is refused', async () => {
    const { GOLDEN_TRUST, GOLDEN_VECTORS } = await import('./golden/vectors.js')
    const v1 = fromBase64Url(GOLDEN_VECTORS.find((vector) => vector.file === 'sealed.zip')!.sealedB64u)!
    expect((await verifyArtifact(v1, GOLDEN_TRUST)).ok).toBe(true)
    const opened = openArtifact(v1)
    expect(E.isRight(opened) && opened.right.proof.statement.format).toBe('cairn.proof.v1')
    const view = new DataView(v1.buffer, v1.byteOffset, v1.byteLength)
    const tampered = v1.slice()
    const at = 30 + view.getUint16(26, true) + view.getUint32(18, true) + 14
    new DataView(tampered.buffer).setUint32(at, view.getUint32(at, true) ^ 1, true)
    expect((await verifyArtifact(tampered, GOLDEN_TRUST)).errors).toEqual(['Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)'])
  })

  it('sealed JSON stays JSON with the documented member', async () => {
    const { seal } = await sealer()
    const sealed = await seal(encoder.encode('{"a": 1}\n'), 'data.json', 'application/json')
    const parsed = JSON.parse(new TextDecoder().decode(sealed.bytes))
    expect(parsed.a).toBe(1)
    expect(parsed.cairnProof.statement.carrier).toBe('json')
  })

  it('an owner countersignature by a named ID key verifies offline; another key is refused', async () => {
    const { seal, trust } = await sealer()
    const secret = sha256(encoder.encode('owner id key'))
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(ed25519.getPublicKey(secret)) }
    const thumbprint = toBase64Url(sha256(canonicalJsonBytes(jwk)))
    const sealed = await seal(encoder.encode('{"asset":true}'), 'asset.json', 'application/json', { sealKind: 'proof-object', owner: { userId: 'usr_1', username: 'ada', idKeyThumbprints: [thumbprint] } })
    const countersigned = await countersign(sealed.bytes, { alg: 'EdDSA', jwk, sign: async (data) => ed25519.sign(data, secret) })
    if (E.isLeft(countersigned)) throw new Error(countersigned.left)
    const verdict = await verifyArtifact(countersigned.right, trust)
    expect(verdict).toMatchObject({ ok: true, kind: 'proof-object', details: { countersignedByOwner: true, owner: { userId: 'usr_1', username: 'ada' } } })
    expect(unseal(countersigned.right)).toEqual(encoder.encode('{"asset":true}'))
    const stranger = sha256(encoder.encode('stranger'))
    const strangerJwk = { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(ed25519.getPublicKey(stranger)) }
    expect(E.isLeft(await countersign(sealed.bytes, { alg: 'EdDSA', jwk: strangerJwk, sign: async (data) => ed25519.sign(data, stranger) }))).toBe(true)
    const forged = withProof(sealed.bytes, (proof) => {
      proof.countersignatures = [{ role: 'owner', alg: 'EdDSA', jwk: strangerJwk, sig: toBase64Url(ed25519.sign(canonicalJsonBytes(proof.statement), stranger)) }]
    })
    expect((await verifyArtifact(forged, trust)).errors).toEqual(['Countersignature: its key is not one of the owner ID keys the statement names'])
  })
})

describe('bad input (each writes nothing and says what failed)', () => {
  const prepare = (payload: Uint8Array, fileName = 'f.bin', mediaType = 'application/octet-stream') =>
    prepareSeal({ payload, fileName, mediaType, sealKind: 'integrity-seal', createdAtMs: 0, code: 'c', slug: 's', baseUrl: 'https://x.example', logOrigin: 'x.example/log' })

  it('refuses an empty file, a truncated PNG and a truncated PDF before anything is signed', () => {
    expect(prepare(new Uint8Array())).toEqual(E.left('The file is empty; there is nothing to seal'))
    const png = pngFile([encoder.encode('pixels')])
    expect(prepare(png.subarray(0, png.length - 6), 'a.png', 'image/png')).toEqual(E.left('The PNG is truncated: it ends before its IEND chunk'))
    const pdf = pdfFile(encoder.encode('content'))
    expect(prepare(pdf.subarray(0, pdf.length - 20), 'a.pdf', 'application/pdf')).toEqual(E.left('The PDF is truncated: it does not end with %%EOF'))
  })

  it('answers each failure by name', async () => {
    const { seal, trust } = await sealer()
    const first = await seal(pngFile([encoder.encode('one')]), 'one.png', 'image/png')
    const second = await seal(pngFile([encoder.encode('two')]), 'two.png', 'image/png')
    const errorsOf = async (bytes: Uint8Array, trusted = trust) => (await verifyArtifact(bytes, trusted)).errors

    // A proof for other bytes: the second file's proof moved into the first file.
    const moved = carriers.png.embed(unseal(first.bytes), canonicalJsonBytes(second.proof), 'one.png')
    expect((await errorsOf(moved))[0]).toMatch(/^Payload digest/)

    // Two proofs in one file.
    const twice = carriers.png.embed(first.bytes, canonicalJsonBytes(second.proof), 'one.png')
    expect(await errorsOf(twice)).toEqual([expect.stringMatching(/^Two proofs/)])

    // Unknown kid: the verifier trusts another proof key set.
    const otherKeys = { ...trust, proofKeys: [fixedEd25519Key('someone-else', 'proof').publicJwk] }
    expect(await errorsOf(first.bytes, otherKeys)).toEqual([`Unknown key: ${first.proof.signatures[0]!.kid} is not in the trusted proof key set`])

    // A signature over other bytes: the statement's file name changed, the signature kept.
    const renamed = withProof(first.bytes, (proof) => {
      proof.statement.payload.fileName = 'other.png'
    })
    const renamedErrors = await errorsOf(renamed)
    expect(renamedErrors[0]).toMatch(/^Signature: the EdDSA signature by golden-proof-1 does not cover this statement/)
    expect(renamedErrors[1]).toMatch(/^Log inclusion/)

    // Unknown format version.
    const future = withProof(first.bytes, (proof) => {
      ;(proof.statement as { format: string }).format = 'cairn.proof.v9'
    })
    expect(await errorsOf(future)).toEqual(['Unknown format version: "cairn.proof.v9"; this verifier reads cairn.proof.v1 and cairn.proof.v2'])

    // Log inclusion against a log key the verifier does not pin.
    const otherLog = { ...trust, logKeys: [(await (await import('../tlog/log-identity.js')).logSigner(new FixedKeyStore({ token: 'other-log', proof: 'x' }), 'https://cairn.example')).verifierKey] }
    expect((await errorsOf(first.bytes, otherLog))[0]).toMatch(/^Log inclusion/)

    // The proof chunk anywhere but immediately before IEND.
    const original = unseal(first.bytes)
    const chunk = first.bytes.subarray(original.length - 12, first.bytes.length - 12)
    const early = new Uint8Array([...original.subarray(0, 33), ...chunk, ...original.subarray(33)])
    expect(await errorsOf(early)).toEqual(['Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)'])

    // Bytes appended after sealing; a truncated sealed file; a file with no proof at all.
    // (after a PNG's IEND, bytes belong to the payload; after a PDF's proof update they break the carrier)
    expect((await errorsOf(new Uint8Array([...first.bytes, 0x0a])))[0]).toMatch(/^Payload digest/)
    const pdf = await seal(pdfFile(encoder.encode('text')), 'p.pdf', 'application/pdf')
    expect((await errorsOf(new Uint8Array([...pdf.bytes, ...encoder.encode('% more\n')])))[0]).toMatch(/^Malformed carrier/)
    expect((await errorsOf(first.bytes.subarray(0, first.bytes.length - 5)))[0]).toMatch(/^Malformed carrier: The PNG is truncated/)
    expect(await errorsOf(pngFile([]))).toEqual(['No proof found: the file is not a sealed PNG, SVG, PDF, JSON file or package artifact'])
    expect(await errorsOf(new Uint8Array())).toEqual(['The file is empty'])
    expect((await verifyArtifact(pngFile([]), trust)).kind).toBe('unknown')
  })
})

describe('the proof\'s shape', () => {
  it('is refused as the codec\'s decoder refuses it, and members it does not name are carried as before', async () => {
    const { seal, trust } = await sealer()
    const { bytes } = await seal(encoder.encode('shape'), 'shape.txt', 'text/plain')
    const shape = 'Malformed carrier: the proof does not have the cairn.proof.v2 shape'
    const changes: [string, (proof: Record<string, any>) => void, boolean][] = [
      ['a length given as text', (proof) => (proof.statement.payload.length = '5'), false],
      ['a negative leaf index', (proof) => (proof.log.leafIndex = -1), false],
      ['no signatures member', (proof) => delete proof.signatures, false],
      ['a signature without its kid', (proof) => delete proof.signatures[0].kid, false],
      ['an unknown seal kind', (proof) => (proof.statement.sealKind = 'notary'), false],
      ['a digest in capitals', (proof) => (proof.statement.bundle.sha256 = proof.statement.bundle.sha256.toUpperCase()), false],
      ['a countersignature key member that is a number', (proof) => (proof.countersignatures = [{ role: 'owner', alg: 'EdDSA', jwk: { kty: 1 }, sig: 'AA' }]), false],
      ['an owner that is an array', (proof) => (proof.statement.owner = []), false],
      ['a member the format does not name, beside the statement', (proof) => (proof.note = 'kept'), true],
    ]
    for (const [label, change, verifies] of changes) {
      const changed = withProof(bytes, (proof) => void change(proof as unknown as Record<string, any>))
      const verdict = await verifyArtifact(changed, trust)
      expect({ label, errors: verdict.errors }).toEqual({ label, errors: verifies ? [] : [shape] })
    }
  })
})

describe('the proof bytes sealing writes', () => {
  it('are the RFC 8785 form of the proof (its statement spliced in from signing, not canonicalised again)', async () => {
    const { seal } = await sealer()
    for (const [bytes, name, type] of [[encoder.encode('plain'), 'a.txt', 'text/plain'], [pngFile([encoder.encode('x')]), 'a.png', 'image/png']] as const) {
      const sealed = await seal(bytes, name, type)
      const opened = openArtifact(sealed.bytes)
      expect(E.isRight(opened) && opened.right.proofBytes).toEqual(canonicalJsonBytes(sealed.proof))
    }
  })
})

describe('a carrier survey', () => {
  it('answers as the separate questions would: sealed already, what is wrong, where the proof goes', async () => {
    const { seal } = await sealer()
    const cases: Uint8Array[] = []
    for (const kind of ['png', 'pdf'] as const) {
      for (const payload of fc.sample(payloadArbitraries[kind], 6)) {
        const sealed = (await seal(payload.bytes, payload.filename, payload.mimeType)).bytes
        // Unsealed, sealed, sealed twice (bytes appended to a sealed PDF or a second chunk), truncated, damaged.
        const twice = carriers[kind].embed(sealed, encoder.encode('{}'), payload.filename)
        cases.push(payload.bytes, sealed, twice, payload.bytes.subarray(0, payload.bytes.length - 7), sealed.subarray(0, sealed.length - 3), sealed.map((byte, i) => (i === sealed.length - 40 ? byte ^ 1 : byte)))
      }
    }
    for (const bytes of cases) {
      const carrier = [carriers.png, carriers.pdf].find((candidate) => candidate.recognises(bytes))!
      const problem = carrier.problem(bytes)
      expect(carrier.survey!(bytes)).toEqual({
        sealed: alreadySealed(bytes),
        ...(problem === undefined ? { insertionPoint: carrier.insertionPoint!(bytes) } : { problem }),
      })
    }
  })
})

describe('a PDF trailer', () => {
  it('is found after the last startxref only when an offset alone follows it to %%EOF', () => {
    const pdf = new TextDecoder('latin1').decode(pdfFile(encoder.encode('content')))
    const offset = /startxref\n(\d+)\n%%EOF\n$/u.exec(pdf)![1]!
    const body = pdf.slice(0, pdf.lastIndexOf('startxref'))
    const latin1Bytes = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))
    const problemOf = (tail: string) => carriers.pdf.problem(latin1Bytes(body + tail))
    expect(problemOf(`startxref\n${offset}\n%%EOF\n`)).toBeUndefined()
    expect(problemOf(`startxref 1\nstartxref\r\n${offset} \n%%EOF`)).toBeUndefined()
    expect(problemOf(`startxref\u00a0${offset}\u00a0%%EOF\n`)).toBeUndefined() // Latin-1 NBSP is whitespace to the pattern, as before
    expect(problemOf(`startxref\n${offset}\nstartxref x\n%%EOF\n`)).toBe('The PDF is truncated: no startxref before %%EOF')
    expect(problemOf(`startxref\n${offset} 0\n%%EOF\n`)).toBe('The PDF is truncated: no startxref before %%EOF')
    expect(problemOf(`startxref\n%%EOF\n`)).toBe('The PDF is truncated: no startxref before %%EOF')
    expect(problemOf(`startxre\n${offset}\n%%EOF\n`)).toBe('The PDF is truncated: no startxref before %%EOF')
  })
})
