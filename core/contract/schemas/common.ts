/**
 * Components every area shares: the error body, the open response and request envelopes, and
 * the building blocks of digests. Names follow the spec with `Svc` → `Cairn`.
 */
import * as t from 'io-ts'
import { alias, describe, struct } from '../define.js'
import { Sha256Hex } from '../primitives.js'

/** Every 4XX and 5XX answer: `{ ok: false, error: "<plain sentence>" }` (docs/decisions.md: error type). */
export const CairnErrorResponse = struct(
  'CairnErrorResponse',
  { ok: t.literal(false), error: t.string },
  {},
  'Error body of every 4XX and 5XX response. `error` is a plain sentence for people; no stable error codes are published.',
)

/** Open success envelope; the spec shows no properties, so only `ok` is typed and more may follow. */
export const CairnApiResponse = describe(
  t.partial({ ok: t.boolean }, 'CairnApiResponse'),
  'Open response envelope. Properties beyond `ok` depend on the operation.',
)

/** Free-form JSON request body; each operation that uses it documents the fields it reads. */
export const GenericCairnRequest = describe(
  alias('GenericCairnRequest', t.UnknownRecord),
  'Free-form JSON object. The operation documents which properties it reads.',
)

/** The `{ algorithm, binds, value }` digest form every typed V124 digest uses. */
export function digestStruct(name: string, binds: string) {
  return struct(
    name,
    { algorithm: t.literal('sha-256'), binds: t.literal(binds), value: Sha256Hex },
    {},
    `SHA-256 over the RFC 8785 canonical JSON (or exact bytes) of ${binds}.`,
  )
}

export const commonComponents = { CairnErrorResponse, CairnApiResponse, GenericCairnRequest } as const
