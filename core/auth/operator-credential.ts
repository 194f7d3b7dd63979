/**
 * The operator credential: a bearer token whose SHA-256 the deployment file names
 * (`"operator": { "tokenSha256": "<64 hex>" }`). Only its hash lives in the file; the token lives
 * with whoever operates the deployment (`CAIRN_OPERATOR_TOKEN` for `cairn value issue --server`).
 * A deployment that names none has no operator over HTTP at all.
 */
import { timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { DeploymentConfig } from '../config/deployment-config.js'
import { sha256Hex } from '../digest/sha256.js'
import { forbidden, unauthenticated, type DomainError } from '../errors/domain-error.js'

/** Right when `authorization` is `Bearer <the operator token>`; a 401 or 403 sentence otherwise. */
export function checkOperatorCredential(deployment: DeploymentConfig, authorization: string | null): Either<DomainError, 'operator'> {
  const expected = deployment.operator?.tokenSha256
  if (expected === undefined) return E.left(forbidden('This deployment names no operator credential (operator.tokenSha256 in the deployment file); issue value with `cairn value issue --data-dir` instead'))
  const token = /^Bearer ([\x21-\x7e]+)$/.exec(authorization ?? '')?.[1]
  if (token === undefined) return E.left(unauthenticated('The operator credential is required: Authorization: Bearer <operator token>'))
  const presented = Buffer.from(sha256Hex(new TextEncoder().encode(token)), 'hex')
  if (!timingSafeEqual(presented, Buffer.from(expected, 'hex'))) return E.left(unauthenticated('The operator credential is not this deployment\'s'))
  return E.right('operator')
}
