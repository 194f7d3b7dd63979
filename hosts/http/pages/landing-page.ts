/**
 * `GET <base>/`: what this server is, in a few lines, with links to what a first-time visitor
 * wants — verifying a file, signing in, the API's OpenAPI document and the documentation — and
 * `GET <base>/favicon.ico`, the mark every page shows in its tab.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { escapeHtml, messagePage, pageDocument, pageResponse } from './html.js'
import type { PageContext } from './page-context.js'

/** The package's docs/ folder (shipped in the npm package), found from this file in source or in dist. */
const DOCS_DIR = (() => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'docs', 'value.md'))) return join(dir, 'docs')
  }
  return undefined
})()
const DOC_NAME = /^[a-z0-9-]+\.md$/

export function landingPage(context: PageContext): Response {
  const base = escapeHtml(context.basePath)
  const body = `<h1>Cairn</h1>
<p>This server seals files into proof objects whose exact bytes carry their proof, and verifies,
publishes and inspects them. The sealed bytes are the authority; anyone can check them, online
here or offline with <code>cairn verify</code>.</p>
<ul class="links">
<li><a id="verify" href="${base}/verify">Verify a file</a> — drop a sealed file, nothing is uploaded</li>
<li><a id="login" href="${base}/login">Sign in</a> — your key is made in this browser; a new username creates an account</li>
<li><a id="openapi" href="${base}/openapi.json">OpenAPI document</a> — every operation of the API</li>
<li><a id="docs" href="${base}/docs">Documentation</a> — how Cairn works and how to run it</li>
</ul>
<p class="status">Public ledgers: <a href="${base}/api/wallet/ledger/public">wallet</a> · <a href="${base}/api/ledger/actions/public">actions</a> · <a href="${base}/log/checkpoint">transparency log</a></p>`
  return pageResponse(pageDocument(`Cairn — ${context.base.host}`, body, context.basePath))
}

/** A cairn of three stones, as SVG (every current browser takes an SVG icon by its media type). */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2f5d50"/><ellipse cx="16" cy="25" rx="10" ry="4" fill="#f4f1ea"/><ellipse cx="16" cy="17.5" rx="7.5" ry="3.5" fill="#f4f1ea"/><ellipse cx="16" cy="10.5" rx="5" ry="3" fill="#f4f1ea"/></svg>`

export function favicon(): Response {
  return new Response(FAVICON, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' } })
}

/** `GET <base>/docs`: the documentation pages this server ships, as a list. */
export function docsIndex(context: PageContext): Response {
  const names = DOCS_DIR ? readdirSync(DOCS_DIR).filter((name) => DOC_NAME.test(name)).sort() : []
  if (names.length === 0) return messagePage('No documentation here', 'This installation carries no docs/ folder.', context.basePath, 404)
  const base = escapeHtml(context.basePath)
  const body = `<h1>Documentation</h1><ul class="links">${names.map((name) => `<li><a href="${base}/docs/${escapeHtml(name)}">${escapeHtml(name)}</a></li>`).join('')}</ul>`
  return pageResponse(pageDocument('Documentation — Cairn', body, context.basePath))
}

/** `GET <base>/docs/{name}.md`: one page of the docs, as the Markdown it is written in. */
export function docsPage(context: PageContext, request: Request): Response {
  const name = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '')
  if (!DOCS_DIR || !DOC_NAME.test(name) || !existsSync(join(DOCS_DIR, name))) return messagePage('No such page', 'The documentation has no page of that name.', context.basePath, 404)
  return new Response(readFileSync(join(DOCS_DIR, name)), { headers: { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' } })
}
