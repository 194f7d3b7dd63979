/**
 * Any other media type: a package artifact, a deterministic ZIP (stored, not compressed; every
 * entry dated 1980-01-01T00:00:00, the ZIP epoch) holding `cairn-proof.json` and the original file
 * as `payload/<file name>`. fflate writes and reads it.
 */
import { unzipSync, zipSync } from 'fflate'
import type { Carrier, Extraction } from './carrier.js'

export const ZIP_PROOF_ENTRY = 'cairn-proof.json'
export const ZIP_PAYLOAD_FOLDER = 'payload/'
/** 1980-01-01T00:00:00 local time is what DOS dates can hold first; fflate writes local time, so pin it. */
const ZIP_EPOCH = new Date(1980, 0, 1, 0, 0, 0)

/** The entry name of the payload: the file name's last path segment, without control characters. */
export function payloadEntryName(fileName: string): string {
  const base = fileName.split(/[\\/]/u).pop()?.replace(/[\u0000-\u001f\u007f]/gu, '') ?? ''
  return ZIP_PAYLOAD_FOLDER + (base === '' || base === '.' || base === '..' ? 'payload.bin' : base)
}

export const zipCarrier: Carrier = {
  name: 'zip',
  recognises: (bytes) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04,
  problem: () => undefined,
  embed(payload, proofBytes, fileName) {
    return zipSync(
      { [ZIP_PROOF_ENTRY]: [proofBytes, { level: 0, mtime: ZIP_EPOCH }], [payloadEntryName(fileName)]: [payload, { level: 0, mtime: ZIP_EPOCH }] },
      { level: 0, mtime: ZIP_EPOCH },
    )
  },
  extract(sealed): Extraction {
    let entries: Record<string, Uint8Array>
    try {
      entries = unzipSync(sealed)
    } catch (error) {
      return { kind: 'malformed', error: `The ZIP package does not open: ${(error as Error).message}` }
    }
    const names = Object.keys(entries)
    const proofBytes = entries[ZIP_PROOF_ENTRY]
    if (!proofBytes) return { kind: 'unsealed' }
    const payloads = names.filter((name) => name.startsWith(ZIP_PAYLOAD_FOLDER))
    if (names.filter((name) => name.endsWith(ZIP_PROOF_ENTRY)).length > 1) return { kind: 'multiple', error: 'The ZIP package holds more than one proof' }
    if (payloads.length !== 1 || names.length !== 2) return { kind: 'malformed', error: `A package artifact holds exactly ${ZIP_PROOF_ENTRY} and one file under ${ZIP_PAYLOAD_FOLDER}` }
    return { kind: 'sealed', payloadParts: [entries[payloads[0]!]!], proofBytes }
  },
}
