/** User ids: random and meaningless, so the pseudonyms derived from them link to nothing public. */
import type { CoreDeps } from '../usecases/use-case.js'
import { toBase64Url } from '../encoding/base64url.js'

/** @example newUserId(deps) // 'usr_3q2-7wAAAAA…' (128 random bits) */
export function newUserId(deps: Pick<CoreDeps, 'entropy'>): string {
  return `usr_${toBase64Url(deps.entropy.bytes(16))}`
}
