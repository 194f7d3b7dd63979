/**
 * Primitive codecs shared by every component schema. Each carries the JSON Schema it
 * publishes as, so the OpenAPI document and the runtime decoder can never disagree.
 */
import * as t from 'io-ts'
import { annotate } from './json-schema.js'

/** A string matching `pattern`, published as `{ type: 'string', pattern }` plus `extra`. */
export function patternString(name: string, pattern: RegExp, extra: Record<string, unknown> = {}): t.Type<string, string, unknown> {
  const codec = new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && pattern.test(u),
    (u, c) => (typeof u === 'string' && pattern.test(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  )
  return annotate(codec, { type: 'string', pattern: pattern.source, ...extra })
}

/** Money and other exact quantities: a decimal string, never a float (e.g. `"12.50"`, `"-3"`). */
export const DecimalString = patternString('DecimalString', /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/, {
  description: 'Exact decimal number as a string',
  examples: ['1250', '12.50'],
})

/** RFC 3339 / ISO 8601 UTC timestamp with milliseconds optional, e.g. `2026-06-25T12:00:00.000Z`. */
export const IsoTimestamp = patternString(
  'IsoTimestamp',
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/,
  { format: 'date-time' },
)

/** Exact bytes on the wire: unpadded base64url (RFC 4648 §5). */
export const Base64Url = patternString('Base64Url', /^[A-Za-z0-9_-]*$/, { contentEncoding: 'base64url' })

/** Lowercase hex SHA-256 digest value. */
export const Sha256Hex = patternString('Sha256Hex', /^[0-9a-f]{64}$/, { description: 'Lowercase hex SHA-256' })

/** An absolute URL. */
export const UrlString = patternString('UrlString', /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/, { format: 'uri' })

/** A non-empty string. */
export const NonEmptyString = patternString('NonEmptyString', /^[\s\S]+$/, { minLength: 1 })

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
