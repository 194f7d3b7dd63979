/**
 * Primitive codecs shared by every component schema. Each carries the JSON Schema it
 * publishes as, so the OpenAPI document and the runtime decoder can never disagree.
 */
import * as t from 'io-ts'
import { annotate } from './json-schema.js'
import { explain } from './rule-words.js'

/**
 * A string matching `pattern` (and `check`, when given), published as `{ type: 'string', pattern }`
 * plus `extra`.
 */
export function patternString(name: string, pattern: RegExp, extra: Record<string, unknown> = {}, check: (s: string) => boolean = () => true): t.Type<string, string, unknown> {
  const valid = (u: unknown): u is string => typeof u === 'string' && pattern.test(u) && check(u)
  const codec = new t.Type<string, string, unknown>(name, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity)
  return annotate(codec, { type: 'string', pattern: pattern.source, ...extra })
}

/** Money and other exact quantities: a decimal string, never a float (e.g. `"12.50"`, `"-3"`). */
export const DecimalString = explain(patternString('DecimalString', /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/, {
  description: 'Exact decimal number as a string',
  examples: ['1250', '12.50'],
}), 'a decimal number written as a string, such as "12.50"')

const TIMESTAMP = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?(Z|[+-]([0-9]{2}):([0-9]{2}))$/

/** True when every field of an RFC 3339 time names a real instant (no month 13, no 31 April, no 25:00). */
function isCalendarInstant(text: string): boolean {
  const m = TIMESTAMP.exec(text)
  if (!m) return false
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const offsetValid = m[8] === 'Z' || (Number(m[9]) <= 23 && Number(m[10]) <= 59)
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetValid
}

/** RFC 3339 / ISO 8601 timestamp with fractions optional, e.g. `2026-06-25T12:00:00.000Z`; a real calendar instant. */
export const IsoTimestamp = patternString('IsoTimestamp', TIMESTAMP, { format: 'date-time' }, isCalendarInstant)

/** Exact bytes on the wire: unpadded base64url (RFC 4648 §5). */
export const Base64Url = explain(patternString('Base64Url', /^[A-Za-z0-9_-]*$/, { contentEncoding: 'base64url' }), 'unpadded base64url text')

/** Lowercase hex SHA-256 digest value. */
export const Sha256Hex = explain(patternString('Sha256Hex', /^[0-9a-f]{64}$/, { description: 'Lowercase hex SHA-256' }), 'a SHA-256 digest as 64 lowercase hex digits')

/** An absolute URL. */
export const UrlString = patternString('UrlString', /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/, { format: 'uri' })

/** A non-empty string. */
export const NonEmptyString = explain(patternString('NonEmptyString', /^[\s\S]+$/, { minLength: 1 }), 'a non-empty string')

/** A safe integer (JSON number without fraction). */
export const Integer = annotate(
  new t.Type<number, number, unknown>(
    'Integer',
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u),
    (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'integer' },
)

/** A non-negative safe integer; Kai pulses and μpulses use it. */
export const NonNegativeInteger = annotate(
  new t.Type<number, number, unknown>(
    'NonNegativeInteger',
    (u): u is number => Integer.is(u) && u >= 0,
    (u, c) => (Integer.is(u) && u >= 0 ? t.success(u) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'integer', minimum: 0 },
)

/** Kai-Klok pulse count (one pulse = 3+√5 s). */
export const KaiPulse = annotate(
  new t.Type<number, number, unknown>('KaiPulse', NonNegativeInteger.is, NonNegativeInteger.validate, t.identity),
  { type: 'integer', minimum: 0, description: 'Kai-Klok pulse (3+√5 s each since genesis 2024-05-10T06:45:41.888Z)' },
)

/** Kai-Klok micro-pulse count (10^6 per pulse). */
export const KaiUPulse = annotate(
  new t.Type<number, number, unknown>('KaiUPulse', NonNegativeInteger.is, NonNegativeInteger.validate, t.identity),
  { type: 'integer', minimum: 0, description: 'Kai-Klok micro-pulse (10^6 per pulse)' },
)

/** Any JSON value whose shape the spec leaves open. */
export const JsonValue = annotate(new t.Type<unknown, unknown, unknown>('JsonValue', (u): u is unknown => true, t.success, t.identity), {})

/** A JSON object whose properties the spec leaves open. */
export const JsonObject = t.UnknownRecord

/** Uploaded file part of a multipart body (decoded by the host into name, type and exact bytes). */
export const UploadedFile: t.Type<UploadedFileValue, UploadedFileValue, unknown> = annotate(
  new t.Type<UploadedFileValue, UploadedFileValue, unknown>(
    'UploadedFile',
    (u): u is UploadedFileValue =>
      typeof u === 'object' && u !== null && (u as UploadedFileValue).bytes instanceof Uint8Array &&
      typeof (u as UploadedFileValue).filename === 'string' && typeof (u as UploadedFileValue).mimeType === 'string',
    (u, c): t.Validation<UploadedFileValue> => (UploadedFile.is(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'string', format: 'binary' },
)

export interface UploadedFileValue {
  readonly filename: string
  readonly mimeType: string
  readonly bytes: Uint8Array
}
