/**
 * Bearer secrets: random text from the Entropy port, stored only as SHA-256. A token of 256
 * random bits needs no slow hash: guessing is the only attack, and it is hopeless either way.
 */
import { timingSafeEqual } from 'node:crypto'
import { sha256Hex } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import type { CoreDeps } from '../usecases/use-case.js'

/** Prefixes make leaked tokens recognisable to secret scanners and to `verifyAccessToken`. */
export const REFRESH_TOKEN_PREFIX = 'cairn_rt_'
export const AGENT_TOKEN_PREFIX = 'cairn_at_'

/**
 * 256 random bits as base64url, after `prefix`.
 *
 * @example newSecret(deps, AGENT_TOKEN_PREFIX) // 'cairn_at_…' (52 characters)
 */
export function newSecret(deps: Pick<CoreDeps, 'entropy'>, prefix = ''): string {
  return prefix + toBase64Url(deps.entropy.bytes(32))
}

/** A short random identifier (128 bits). @example newId(deps, 'grt_') */
export function newId(deps: Pick<CoreDeps, 'entropy'>, prefix: string): string {
  return prefix + toBase64Url(deps.entropy.bytes(16))
}

/** The Store key of a secret: SHA-256 of its text, lowercase hex. @example secretKey('cairn_at_…') // 64 hex characters */
export function secretKey(secret: string): string {
  return sha256Hex(secret)
}

/** Constant-time equality of two strings (false for different lengths). @example sameSecret('a', 'a') // true */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}
