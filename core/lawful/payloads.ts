/**
 * What a law and a lawful action are (docs/runtime.md, Lawful Economy). Each is the payload of a
 * sealed proof object: RFC 8785 canonical JSON, so its digest — the SHA-256 of the payload bytes
 * the proof kernel already checked — is the same digest anyone recomputes from the JSON offline.
 * Pure: bytes in, a decoded payload or a sentence out.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { canonicalJson } from '../digest/canonical-json.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'

export const LAW_SCHEMA = 'cairn.v125.law.v1'
export const LAWFUL_ACTION_SCHEMA = 'cairn.v125.lawful_action.v1'

/** The most µΦ a law may accrue per Kai pulse, and the longest action it may pay for (about 166 years). */
export const MAX_RATE_PHI_MICRO_PER_PULSE = 10n ** 9n
export const MAX_PULSES_PER_ACTION = 1_000_000_000

const RUNTIME_ID = /^[A-Za-z0-9._~-]{1,256}$/
const HEX64 = /^[0-9a-f]{64}$/
const POSITIVE_DECIMAL = /^[1-9][0-9]{0,18}$/

const refine = <C extends t.Mixed>(codec: C, name: string, ok: (value: t.TypeOf<C>) => boolean) => t.refinement(codec, ok, name)
const Id = refine(t.string, 'an identifier of 1-256 characters [A-Za-z0-9._~-]', (s) => RUNTIME_ID.test(s))
const Digest = refine(t.string, 'a lowercase hex SHA-256 (64 characters)', (s) => HEX64.test(s))
const Pulse = refine(t.number, 'a whole Kai pulse from 0', (n) => Number.isSafeInteger(n) && n >= 0)
const Rate = refine(t.string, `a positive whole number of µΦ up to ${MAX_RATE_PHI_MICRO_PER_PULSE} as a decimal string`,
  (s) => POSITIVE_DECIMAL.test(s) && BigInt(s) <= MAX_RATE_PHI_MICRO_PER_PULSE)
const MaxPulses = refine(t.number, `a whole number of pulses from 1 to ${MAX_PULSES_PER_ACTION}`, (n) => Number.isSafeInteger(n) && n >= 1 && n <= MAX_PULSES_PER_ACTION)
const Title = refine(t.string, 'a title of 1-200 characters', (s) => s.length >= 1 && s.length <= 200)

/** A law: who pays (the sealed object's owner), at what rate per pulse of a lawful action, for at most how long. */
export const Law = t.strict({
  schema: t.literal(LAW_SCHEMA),
  lawId: Id,
  title: Title,
  ratePhiMicroPerPulse: Rate,
  maxPulsesPerAction: MaxPulses,
}, 'Law')
export type Law = t.TypeOf<typeof Law>

/** A lawful action under a law, or the hand-over of one: the custody it continues and who holds it next. */
export const LawfulAction = t.strict({
  schema: t.literal(LAWFUL_ACTION_SCHEMA),
  lawDigest: Digest,
  actionId: Id,
  startedAtKaiPulse: Pulse,
  completedAtKaiPulse: Pulse,
  priorAdmissionDigest: t.union([Digest, t.null]),
  custodianUserId: refine(t.string, 'a user id of 1-128 characters', (s) => s.length >= 1 && s.length <= 128),
}, 'LawfulAction')
export type LawfulAction = t.TypeOf<typeof LawfulAction>

/**
 * The payload as canonical JSON of `codec`, or why not. Only members the codec names are allowed:
 * a sealed law or action with anything else (an exemption, a multiplier) is refused, not ignored.
 *
 * @example decodePayload(Law, bytes, 'law') // right({ schema: 'cairn.v125.law.v1', … })
 */
export function decodePayload<C extends t.Mixed>(codec: C, bytes: Uint8Array, what: string): Either<string, t.TypeOf<C>> {
  let text: string
  let parsed: unknown
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    parsed = JSON.parse(text)
  } catch {
    return E.left(`The sealed payload is not JSON; a ${what} is RFC 8785 canonical JSON`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return E.left(`The sealed payload is not a JSON object; a ${what} is one`)
  const allowed = new Set(Object.keys((codec as unknown as { type: { props: object } }).type.props))
  const extra = Object.keys(parsed).filter((key) => !allowed.has(key))
  if (extra.length > 0) return E.left(`The sealed ${what} has members no ${what} has (${extra.slice(0, 3).join(', ')}); only ${[...allowed].join(', ')} are allowed`)
  const decoded = codec.decode(parsed)
  if (E.isLeft(decoded)) return E.left(`The sealed ${what} is not valid: ${formatDecodeErrors(decoded.left, what)}`)
  let canonical: string
  try {
    canonical = canonicalJson(parsed)
  } catch {
    return E.left(`The sealed ${what} has no RFC 8785 form`)
  }
  if (canonical !== text!) return E.left(`The sealed ${what} is not in RFC 8785 canonical form, so its digest would not be reproducible`)
  return E.right(decoded.right)
}
