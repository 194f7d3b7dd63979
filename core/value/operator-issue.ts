/**
 * Issuance as an operator asks for it (`POST /operator/value/issue`, `cairn value issue`): a
 * username and an amount as people write it — `phi: "100"` (Φ, at most six decimals) or
 * `usd: "12.50"` (dollars) —, an optional idempotency key (a retry with the same key issues once)
 * and memo. The answer names the public event and its receipt.
 */
import * as t from 'io-ts'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { NonEmptyString } from '../contract/primitives.js'
import { toBase64Url } from '../encoding/base64url.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'
import type { CoreDeps } from '../usecases/use-case.js'
import { parsePhi, parseUsdDollars, toDecimal, type Unit } from './amount.js'
import { issueValue, type IssuedValue, type IssueValueInput } from './issue-value.js'

export const OperatorIssueRequest = t.intersection([
  t.type({ username: NonEmptyString }),
  t.partial({ phi: t.string, usd: t.string, idempotencyKey: t.string, memo: t.string }),
], 'OperatorIssueRequest')
export type OperatorIssueRequest = t.TypeOf<typeof OperatorIssueRequest>

export interface OperatorIssued extends IssuedValue {
  readonly ok: true
  readonly username: string
  readonly unit: Unit
  /** In the unit's smallest denomination (micro-Φ, cents). */
  readonly amount: string
  readonly idempotencyKey: string
}

const MAX_KEY = 255
const MAX_MEMO = 500

/** The decoded request: what `issueValue` takes, and the amount as the operator wrote it. */
export type DecodedOperatorIssue = IssueValueInput & { readonly username: string; readonly idempotencyKey: string }

/**
 * Decodes an operator's request into `issueValue`'s input; `makeKey` names the idempotency key
 * when the request has none.
 */
export function decodeOperatorIssue(input: unknown, makeKey: () => string): Either<DomainError, DecodedOperatorIssue> {
  const decoded = OperatorIssueRequest.decode(input)
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  const body = decoded.right
  if ((body.phi === undefined) === (body.usd === undefined)) return E.left(invalidInput('Give exactly one amount: phi (Φ, e.g. "100") or usd (dollars, e.g. "12.50")'))
  const unit: Unit = body.phi !== undefined ? 'phi' : 'usd'
  const amount = body.phi !== undefined ? parsePhi(body.phi) : parseUsdDollars(body.usd!)
  if (!amount.ok) return E.left(invalidInput(unit === 'phi' ? `phi: ${amount.error}` : amount.error.replace(/^amountUsd/, 'usd')))
  const idempotencyKey = body.idempotencyKey ?? makeKey()
  if (idempotencyKey.length === 0 || idempotencyKey.length > MAX_KEY) return E.left(invalidInput(`idempotencyKey must have 1 to ${MAX_KEY} characters`))
  if (body.memo !== undefined && body.memo.length > MAX_MEMO) return E.left(invalidInput(`memo must be at most ${MAX_MEMO} characters`))
  return E.right({ username: body.username.toLowerCase(), unit, amount: toDecimal(amount.amount), idempotencyKey, ...(body.memo !== undefined ? { memo: body.memo } : {}) })
}

/** The answer: the request as understood and what issuing did. */
export const operatorIssued = (request: DecodedOperatorIssue, issued: IssuedValue): OperatorIssued =>
  ({ ok: true, username: request.username, unit: request.unit, amount: request.amount, idempotencyKey: request.idempotencyKey, ...issued })

/** @example await operatorIssue(deps, { username: 'ada', phi: '100' }) */
export async function operatorIssue(deps: CoreDeps, input: unknown): Promise<Either<DomainError, OperatorIssued>> {
  const request = decodeOperatorIssue(input, () => `operator-${toBase64Url(deps.entropy.bytes(16))}`)
  if (E.isLeft(request)) return request
  const issued = await issueValue(deps, request.right)
  return E.isLeft(issued) ? issued : E.right(operatorIssued(request.right, issued.right))
}
