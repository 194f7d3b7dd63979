/**
 * The canonical form of a public source URL (docs/public-proof.md): WHATWG URL serialisation
 * (which lowercases and punycodes the host, drops the scheme's default port, resolves dot
 * segments and percent-encodes the path), with the fragment removed. Only http and https URLs,
 * without user information, at most 2048 characters. The query is kept as given: its order may
 * matter to the site.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'

export const MAX_SOURCE_URL_LENGTH = 2048

/**
 * @example canonicalSourceUrl('HTTPS://Example.COM:443/a/../b?x=1#top') // right('https://example.com/b?x=1')
 */
export function canonicalSourceUrl(input: string, field = 'url'): Either<string, { readonly url: string; readonly host: string }> {
  if (input.length > MAX_SOURCE_URL_LENGTH) return E.left(`${field} must be at most ${MAX_SOURCE_URL_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    return E.left(`${field} must be an absolute http(s) URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return E.left(`${field} must be an http or https URL, not ${url.protocol.slice(0, -1)}`)
  if (url.username !== '' || url.password !== '') return E.left(`${field} must not carry a user name or password`)
  if (url.hostname === '') return E.left(`${field} must name a host`)
  url.hash = ''
  const canonical = url.href
  if (canonical.length > MAX_SOURCE_URL_LENGTH) return E.left(`${field} must be at most ${MAX_SOURCE_URL_LENGTH} characters`)
  return E.right({ url: canonical, host: url.hostname })
}
