/**
 * The SVG carrier's one-proof rule, now that sealing and verifying search for a second proof
 * element in the chunks they hash: every file refused before is refused with the same answer,
 * wherever the element sits (across a hashed chunk's boundary included), on Node's watched
 * digest and on WebCrypto's.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSealer, type Sealer } from '../../../conformance/proof/sealer.js'
import { concatBytes, utf8 } from '../bytes.js'
import { nodeVerifyOptions } from '../node-digest.js'
import { openArtifact } from '../open-artifact.js'
import { ALREADY_SEALED, alreadySealed } from '../seal.js'
import { verifyArtifact } from '../verify.js'
import { svgCarrier } from './svg.js'

const OPEN = utf8('<metadata id="cairn-proof">')
const TWO_PROOFS = 'Two proofs: The SVG holds more than one cairn-proof metadata element; a sealed file holds exactly one'
/** Where Node's watched digest cuts a part into chunks (node-digest.ts). */
const CHUNK = 256 * 1024

let sealerPromise: Promise<Sealer> | undefined
const sealer = () => (sealerPromise ??= createSealer({ seed: 'svg-one-proof' }))

/** An SVG of about `size` bytes whose closing tag (the insertion point) is at `size - 7`. */
function svgOf(size: number): Uint8Array {
  const head = '<svg xmlns="http://www.w3.org/2000/svg"><text>'
  return utf8(`${head}${'A'.repeat(size - head.length - '</text></svg>\n'.length)}</text></svg>\n`)
}

const insertAt = (bytes: Uint8Array, at: number, inserted: Uint8Array) => concatBytes(bytes.subarray(0, at), inserted, bytes.subarray(at))

/** A proof element (or a broken one) to put into a file. */
const elements = {
  'a whole element': utf8('<metadata id="cairn-proof">e30</metadata>'),
  'an unclosed element': OPEN,
  'an element without base64url text': utf8('<metadata id="cairn-proof">{}</metadata>'),
}

describe('the proof marker', () => {
  it('overlaps itself nowhere, so a second element can only lie wholly before or after the one found', () => {
    expect(svgCarrier.proofMarker).toEqual(OPEN)
    for (let shift = 1; shift < OPEN.length; shift++) expect(OPEN.subarray(shift)).not.toEqual(OPEN.subarray(0, OPEN.length - shift))
  })
})

describe('sealing an SVG that holds a proof element', () => {
  it('is refused as already sealed, with the proof element across a hashed chunk boundary too', async () => {
    const { seal } = await sealer()
    // The first seal's proof element starts 10 bytes before the first chunk boundary.
    const sealed = (await seal(svgOf(CHUNK - 10 + '</svg>\n'.length), 'a.svg', 'image/svg+xml')).bytes
    expect(E.isRight(openArtifact(sealed))).toBe(true)
    expect(sealed.indexOf(OPEN[0]!, CHUNK - 10)).toBe(CHUNK - 10)
    await expect(seal(sealed, 'a.svg', 'image/svg+xml')).rejects.toThrow(ALREADY_SEALED)
  })

  it('is refused exactly where the search of the whole file refused it, wherever the element sits', async () => {
    const { seal } = await sealer()
    const base = svgOf(CHUNK + 4096)
    const position = fc.oneof(fc.integer({ min: CHUNK - OPEN.length, max: CHUNK + 1 }), fc.integer({ min: 45, max: base.length - 7 }))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.values(elements)), position, fc.boolean(), async (element, at, twice) => {
        const payload = twice ? insertAt(insertAt(base, at, element), 45, element) : insertAt(base, at, element)
        const refused = await seal(payload, 'a.svg', 'image/svg+xml').then(() => false, (error: Error) => (expect(error.message).toBe(ALREADY_SEALED), true))
        expect(refused).toBe(alreadySealed(payload))
      }),
      { numRuns: 60 },
    )
  })
})

describe('verifying an SVG with a second proof element', () => {
  it('answers Two proofs on both digests, across a hashed chunk boundary too', async () => {
    const { seal, trust } = await sealer()
    const sealed = (await seal(svgOf(3 * CHUNK), 'b.svg', 'image/svg+xml')).bytes
    expect((await verifyArtifact(sealed, trust, nodeVerifyOptions)).ok).toBe(true)
    for (const at of [CHUNK - 10, CHUNK - 1, CHUNK, 2 * CHUNK - OPEN.length + 1, 45]) {
      const twice = insertAt(sealed, at, elements['a whole element'])
      for (const options of [nodeVerifyOptions, {}]) {
        expect(await verifyArtifact(twice, trust, options)).toEqual({ ok: false, kind: 'unknown', errors: [TWO_PROOFS], warnings: [], byteLength: twice.length })
      }
      expect(openArtifact(twice)).toEqual(E.left({ kind: 'two-proofs', error: TWO_PROOFS }))
    }
  })

  it('answers as opening with a search of the whole file does, whatever else is wrong', async () => {
    const { seal, trust } = await sealer()
    const sealed = (await seal(svgOf(CHUNK + 2048), 'c.svg', 'image/svg+xml')).bytes
    const seam = svgCarrier.extract(sealed)
    if (seam.kind !== 'sealed') throw new Error('not sealed')
    const change = fc.record({
      element: fc.option(fc.constantFrom(...Object.values(elements)), { nil: undefined }),
      at: fc.oneof(fc.integer({ min: CHUNK - OPEN.length, max: CHUNK + 1 }), fc.nat(sealed.length)),
      // A byte of the proof (or anywhere) changed, so the last element is broken or the file not exact.
      flip: fc.option(fc.oneof(fc.integer({ min: seam.seam!.start, max: seam.seam!.end - 1 }), fc.nat(sealed.length - 1)), { nil: undefined }),
    })
    await fc.assert(
      fc.asyncProperty(change, async ({ element, at, flip }) => {
        let bytes: Uint8Array = sealed.slice()
        if (flip !== undefined) bytes[flip] = bytes[flip]! ^ 0x01
        if (element) bytes = insertAt(bytes, at, element)
        const opened = openArtifact(bytes)
        for (const options of [nodeVerifyOptions, {}]) {
          const verdict = await verifyArtifact(bytes, trust, options)
          if (E.isLeft(opened)) expect(verdict.errors).toEqual([opened.left.error])
          else expect(verdict.errors).not.toContain(TWO_PROOFS)
        }
      }),
      { numRuns: 80 },
    )
  })
})
