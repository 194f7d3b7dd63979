/**
 * JSON: the proof is the member `"cairnProof"` of the top-level object, written as the proof's
 * canonical JSON and inserted textually just before the object's closing `}` (preceded by a comma
 * when the object has members). Nothing else in the file changes, so removing that text gives the
 * original bytes back; the file stays valid JSON for every reader.
 */
import { concatBytes, indexOfBytes, utf8, utf8Text } from '../bytes.js'
import { canonicalJson } from '../../digest/canonical-json.js'
import { embedAtInsertionPoint, partsAtInsertionPoint, type Carrier, type Extraction } from './carrier.js'

export const JSON_PROOF_MEMBER = 'cairnProof'
const MEMBER_PREFIX = utf8(`"${JSON_PROOF_MEMBER}":`)
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d

function firstNonSpace(bytes: Uint8Array, from = 0): number {
  let at = from
  while (at < bytes.length && isSpace(bytes[at])) at++
  return at
}

function lastNonSpace(bytes: Uint8Array): number {
  let at = bytes.length - 1
  while (at >= 0 && isSpace(bytes[at])) at--
  return at
}

function parsedObject(bytes: Uint8Array): Record<string, unknown> | undefined {
  const text = utf8Text(bytes)
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** A parsed member may have no RFC 8785 form (a number such as `1E999` parses to Infinity): then no proof can be read. */
function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value)
  } catch {
    return undefined
  }
}

const hasProofMember = (object: Record<string, unknown>) => Object.prototype.hasOwnProperty.call(object, JSON_PROOF_MEMBER)

export const jsonCarrier: Carrier = {
  name: 'json',
  recognises: (bytes) => bytes[firstNonSpace(bytes)] === 0x7b && bytes[lastNonSpace(bytes)] === 0x7d,
  problem(payload) {
    if (!jsonCarrier.recognises(payload)) return 'The JSON file is not one object'
    const object = parsedObject(payload)
    if (!object) return 'The JSON file does not parse as one UTF-8 JSON object'
    return hasProofMember(object) ? `The JSON object already has a ${JSON_PROOF_MEMBER} member` : undefined
  },
  insertionPoint: (payload) => Math.max(0, lastNonSpace(payload)),
  seamBytes(prefix, proofBytes) {
    const hasMembers = firstNonSpace(prefix, firstNonSpace(prefix) + 1) < prefix.length
    return concatBytes(hasMembers ? utf8(',') : new Uint8Array(), MEMBER_PREFIX, proofBytes)
  },
  atSeam: (_prefix, suffix) => suffix[0] === 0x7d && lastNonSpace(suffix) === 0,
  embed: (payload, proofBytes) => embedAtInsertionPoint(jsonCarrier, payload, proofBytes),
  embedParts: (payload, proofBytes, _fileName, options) => partsAtInsertionPoint(jsonCarrier, payload, proofBytes, options),
  extract(sealed): Extraction {
    const object = parsedObject(sealed)
    if (!object) return { kind: 'malformed', error: 'The JSON file does not parse as one UTF-8 JSON object' }
    if (!hasProofMember(object)) return { kind: 'unsealed' }
    const proofText = canonicalOrUndefined(object[JSON_PROOF_MEMBER])
    if (proofText === undefined) return { kind: 'malformed', error: 'the proof is not RFC 8785 canonical JSON' }
    const proofBytes = utf8(proofText)
    const close = lastNonSpace(sealed)
    const memberStart = close - MEMBER_PREFIX.length - proofBytes.length
    const member = sealed.subarray(Math.max(0, memberStart), close)
    if (memberStart < 0 || indexOfBytes(member, MEMBER_PREFIX) !== 0 || indexOfBytes(member, proofBytes, MEMBER_PREFIX.length) !== MEMBER_PREFIX.length) {
      return { kind: 'malformed', error: `The ${JSON_PROOF_MEMBER} member is not the last member in the exact canonical form a seal writes` }
    }
    const cut = sealed[memberStart - 1] === 0x2c ? memberStart - 1 : memberStart
    const parts = [sealed.subarray(0, cut), sealed.subarray(close)]
    if (parts.some((part) => indexOfBytes(part, utf8(`"${JSON_PROOF_MEMBER}"`)) !== -1)) {
      const inner = parsedObject(concatBytes(...parts))
      if (inner && hasProofMember(inner)) return { kind: 'multiple', error: `The JSON object holds more than one ${JSON_PROOF_MEMBER} member; a sealed file holds exactly one` }
    }
    return { kind: 'sealed', payloadParts: parts, proofBytes, seam: { start: cut, end: close } }
  },
}
