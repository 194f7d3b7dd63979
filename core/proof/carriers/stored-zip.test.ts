/** The package writer must keep writing exactly what fflate's zipSync wrote for sealed packages (the golden vectors depend on it). */
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { concatBytes, utf8 } from '../bytes.js'
import { jsCrc32 } from '../crc32.js'
import { nodeCrc32 } from '../node-crc32.js'
import { nodeVerifyOptions } from '../node-digest.js'
import { verifyArtifact } from '../verify.js'
import { createSealer } from '../../../conformance/proof/sealer.js'
import { isStoredZip, storedEntry, storedZipParts } from './stored-zip.js'
import { payloadEntryName, zipCarrier } from './zip.js'

const ZIP_EPOCH = new Date(1980, 0, 1, 0, 0, 0)
const fflatePackage = (proof: Uint8Array, payload: Uint8Array, name: string) =>
  zipSync({ 'cairn-proof.json': [proof, { level: 0, mtime: ZIP_EPOCH }], [name]: [payload, { level: 0, mtime: ZIP_EPOCH }] }, { level: 0, mtime: ZIP_EPOCH })

describe('stored ZIP package', () => {
  const proof = utf8('{"statement":{}}')
  const payloads = [new Uint8Array(0), utf8('hello'), new Uint8Array(200_000).map((_, i) => (i * 7919) & 0xff)]
  // Short and long (past the 64-character hand copy), ASCII and not.
  for (const fileName of ['a.bin', 'résumé.txt', '数据.csv', '', 'dir/x.y', '😀.bin', `${'n'.repeat(70)}.bin`, `${'ü'.repeat(70)}.txt`, `${'n'.repeat(40)}é.bin`]) {
    for (const payload of payloads) {
      it(`writes fflate's bytes for ${JSON.stringify(fileName)} (${payload.length} bytes)`, () => {
        const parts = zipCarrier.embedParts(payload, proof, fileName, { crc32: nodeCrc32 })
        expect(concatBytes(...parts)).toEqual(fflatePackage(proof, payload, payloadEntryName(fileName)))
      })
    }
  }

  it('keeps a large payload as the caller\'s own array, not a copy', () => {
    const payload = payloads[2]!
    expect(zipCarrier.embedParts(payload, proof, 'big.bin').includes(payload)).toBe(true)
  })

  it('agrees with the JavaScript CRC-32', () => {
    for (const payload of payloads) expect(nodeCrc32(payload)).toBe(jsCrc32(payload))
  })

  it('reads an exact package as views into the file', () => {
    const sealed = concatBytes(...storedZipParts([storedEntry('cairn-proof.json', proof, jsCrc32), storedEntry('payload/big.bin', payloads[2]!, jsCrc32)]))
    const extraction = zipCarrier.extract(sealed)
    expect(extraction.kind).toBe('sealed')
    if (extraction.kind === 'sealed') expect(extraction.payloadParts[0]!.buffer).toBe(sealed.buffer)
  })

  it('refuses a sealed package whose payload CRC field was changed, with either CRC-32', async () => {
    const sealer = await createSealer()
    const sealed = (await sealer.seal(payloads[2]!, 'big.bin', 'application/octet-stream')).bytes
    expect((await verifyArtifact(sealed, sealer.trust, nodeVerifyOptions)).ok).toBe(true)
    const payloadHeader = 30 + 'cairn-proof.json'.length + new DataView(sealed.buffer, sealed.byteOffset).getUint32(18, true)
    const tampered = sealed.slice()
    tampered[payloadHeader + 14]! ^= 1
    for (const options of [nodeVerifyOptions, {}]) {
      const verdict = await verifyArtifact(tampered, sealer.trust, options)
      expect(verdict.errors).toEqual(['Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)'])
    }
  })

  it('isStoredZip answers exactly whether the bytes are the joined parts: every byte changed, one added or one cut is refused', () => {
    // A large proof first leaves the reused scratch array dirty for the smaller ones after it.
    const proofs = [new Uint8Array(9000).fill(0xff), proof, utf8('{}')]
    for (const proofBytes of proofs) {
      for (const payload of payloads) {
        const entries = [storedEntry('cairn-proof.json', proofBytes, jsCrc32), storedEntry('payload/résumé.txt', payload, jsCrc32)]
        const sealed = concatBytes(...storedZipParts(entries))
        expect(isStoredZip(sealed, entries)).toBe(true)
        // Every header byte (and every data byte of a small file), flipped one at a time; a large payload's first and last.
        const positions = sealed.length < 20_000 ? sealed.keys() : [0, 100, sealed.length - 1, 30 + 16 + proofBytes.length + 30 + 20, 30 + 16 + proofBytes.length + 30 + 20 + payload.length - 1]
        for (const at of positions) {
          const changed = sealed.slice()
          changed[at]! ^= 0x01
          expect(isStoredZip(changed, entries), `byte ${at}`).toBe(false)
        }
        expect(isStoredZip(concatBytes(sealed, new Uint8Array(1)), entries)).toBe(false)
        expect(isStoredZip(sealed.subarray(0, sealed.length - 1), entries)).toBe(false)
      }
    }
  })

  it('refuses a sealed package whose proof entry CRC field was changed, with either CRC-32', async () => {
    const sealer = await createSealer()
    const sealed = (await sealer.seal(payloads[1]!, 'small.bin', 'application/octet-stream')).bytes
    const tampered = sealed.slice()
    tampered[14]! ^= 1 // the proof entry's local header CRC-32
    for (const options of [nodeVerifyOptions, {}]) {
      const verdict = await verifyArtifact(tampered, sealer.trust, options)
      expect(verdict.errors).toEqual(['Malformed carrier: the file holds bytes beyond the payload and its proof (changed after sealing)'])
    }
  })
})
