/**
 * The one path every operation takes, whatever the host: authenticate, refuse input no operation
 * can hold (lone surrogates, hostile nesting: core/encoding/untrusted-json.ts), decode the query and
 * body with the contract's codecs (bad input stops here, before anything is written), then run the
 * use case — or answer that the operation is not built yet.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { Authenticator } from '../auth/authenticator.js'
import type { Credentials } from '../auth/credentials.js'
import { components } from '../contract/components.js'
import type { OperationSpec } from '../contract/operation.js'
import { invalidInput, notImplemented, type DomainError } from '../errors/domain-error.js'
import { formatDecodeErrors } from '../errors/decode-errors.js'
import { untrustedJsonProblem } from '../encoding/untrusted-json.js'
import type { OperationId } from '../contract/operations/index.js'
import type { CoreDeps, Reply, UseCase, UseCaseRegistry } from './use-case.js'

/** An operation's input as it arrived: strings from the URL, a body already parsed from its media type. */
export interface RawOperationInput {
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string | readonly string[]>>
  /** `undefined` when no body was sent. */
  readonly body: unknown
  readonly credentials: Credentials
  /** The caller's address (core/rate-limit/client-address.ts), when the host knows it. */
  readonly clientAddress?: string
}

export interface OperationEnvironment {
  readonly deps: CoreDeps
  readonly authenticator: Authenticator
  readonly useCases: UseCaseRegistry
  /** Settles when the Store's collections are declared; operations wait for it. */
  readonly ready?: Promise<void>
}

/**
 * @example await executeOperation(operationsById.get('getJwks')!, { params: {}, query: {}, body: undefined, credentials: {} }, env)
 */
export async function executeOperation(op: OperationSpec, input: RawOperationInput, env: OperationEnvironment): Promise<Either<DomainError, Reply>> {
  await env.ready
  const principal = await env.authenticator.authenticate(op.auth, op.scopes, input.credentials)
  if (E.isLeft(principal)) return principal
  const unrepresentable = untrustedJsonProblem(input.params, 'path') ?? untrustedJsonProblem(input.query, 'query') ?? untrustedJsonProblem(input.body, 'body')
  if (unrepresentable !== undefined) return E.left(invalidInput(unrepresentable))
  const query = decodeQuery(op, input.query)
  if (E.isLeft(query)) return query
  const body = decodeBody(op, input.body)
  if (E.isLeft(body)) return body
  // The one place a registry entry loses its row's types: the codecs above decoded exactly them.
  const useCase = env.useCases[op.operationId as OperationId] as UseCase | undefined
  if (!useCase) return E.left(notImplemented(`${op.method} ${op.path} is not built yet in this version of Cairn`))
  return useCase({ params: input.params, query: query.right, body: body.right, principal: principal.right, ...(input.clientAddress === undefined ? {} : { clientAddress: input.clientAddress }) }, env.deps)
}

function decodeQuery(op: OperationSpec, raw: RawOperationInput['query']): Either<DomainError, Record<string, unknown>> {
  const decoded: Record<string, unknown> = {}
  for (const parameter of op.query) {
    const value = raw[parameter.name]
    if (value === undefined) {
      if (parameter.required) return E.left(invalidInput(`Query parameter ${parameter.name} is required`))
      continue
    }
    if (typeof value !== 'string') return E.left(invalidInput(`Query parameter ${parameter.name} must appear once`))
    const result = parameter.codec.decode(value)
    if (E.isLeft(result)) return E.left(invalidInput(formatDecodeErrors(result.left, parameter.name)))
    decoded[parameter.name] = result.right
  }
  return E.right(decoded)
}

const MEDIA_TYPE_WORDS = { json: 'JSON', multipart: 'multipart/form-data', form: 'application/x-www-form-urlencoded' } as const

function decodeBody(op: OperationSpec, body: unknown): Either<DomainError, unknown> {
  if (op.request.kind === 'none' || op.request.ignored) return E.right(undefined)
  if (body === undefined) return op.request.required ? E.left(invalidInput(`A ${MEDIA_TYPE_WORDS[op.request.kind]} request body is required`)) : E.right(undefined)
  const result = components[op.request.schema].decode(body)
  return E.isLeft(result) ? E.left(invalidInput(formatDecodeErrors(result.left, 'body'))) : E.right(result.right)
}
