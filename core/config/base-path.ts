/** The path Cairn is mounted under, from its base URL (routes, cookie paths and links use it). */

/**
 * Without a trailing slash; '' when Cairn is mounted at the root.
 *
 * @example basePathOf('https://example.com/cairn/') // '/cairn'
 */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '')
}
