/**
 * Operator-only routes outside the 108 operations: `POST /operator/value/issue` issues value to a
 * user's wallet (core/value/operator-issue.ts) for the bearer of the operator credential the
 * deployment file names (core/auth/operator-credential.ts). The credential is checked before the
 * body is read; without it nothing is read, written or revealed.
 */
import * as E from 'fp-ts/lib/Either.js'
import { checkOperatorCredential } from '../../core/auth/operator-credential.js'
import { invalidInput, payloadTooLarge } from '../../core/errors/domain-error.js'
import type { OperationEnvironment } from '../../core/usecases/execute-operation.js'
import { json } from '../../core/usecases/use-case.js'
import { operatorIssue } from '../../core/value/index.js'
import type { InteractionRoute } from './pages/interaction-routes.js'
import { domainErrorResponse, replyResponse } from './to-response.js'

export const OPERATOR_ISSUE_PATH = '/operator/value/issue'
const MAX_BODY_BYTES = 16 * 1024

export function operatorRoutes(env: OperationEnvironment): InteractionRoute[] {
  return [{ method: 'POST', path: OPERATOR_ISSUE_PATH, handle: (request) => issue(env, request) }]
}

async function issue(env: OperationEnvironment, request: Request): Promise<Response> {
  await env.ready
  const operator = checkOperatorCredential(env.deps.config.deployment, request.headers.get('authorization'))
  if (E.isLeft(operator)) return domainErrorResponse(operator.left)
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) return domainErrorResponse(invalidInput('The body must be JSON (Content-Type: application/json)'))
  if (Number(request.headers.get('content-length') ?? '0') > MAX_BODY_BYTES) return domainErrorResponse(payloadTooLarge(`The body must be at most ${MAX_BODY_BYTES} bytes`))
  const text = await request.text()
  if (text.length > MAX_BODY_BYTES) return domainErrorResponse(payloadTooLarge(`The body must be at most ${MAX_BODY_BYTES} bytes`))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return domainErrorResponse(invalidInput('The body is not valid JSON'))
  }
  const issued = await operatorIssue(env.deps, body)
  return E.isLeft(issued) ? domainErrorResponse(issued.left) : replyResponse(json(issued.right as never))
}
