/**
 * HTML answers of Cairn's own pages: every value escaped, a strict Content Security Policy (no
 * inline script or style; scripts and styles only from Cairn's static files), never cached, never
 * framed.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** @example html`<p>${name}</p>` — interpolated values are escaped; `raw(...)` values are not */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

export interface PageOptions {
  /** Extra origins a form on the page may end up at (CSP form-action also governs redirects after a submission). */
  readonly formTargets?: readonly string[]
  readonly status?: number
}

/** @example pageResponse(body, { formTargets: ['https://rp.example'] }) */
export function pageResponse(document: string, options: PageOptions = {}): Response {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ')
  const csp = [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self'",
    `form-action ${formAction}`, "frame-ancestors 'none'", "base-uri 'none'",
  ].join('; ')
  return new Response(document, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      // Not no-referrer: browsers then send `Origin: null` on form POSTs, defeating the Origin check.
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
    },
  })
}

/** The common page frame; `attributes` become data-* on <html> (how scripts read their settings under CSP). */
export function pageDocument(title: string, body: string, basePath: string, attributes: Readonly<Record<string, string>> = {}, script?: string): string {
  const data = Object.entries(attributes).map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`).join('')
  return `<!doctype html>
<html lang="en"${data}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${escapeHtml(basePath)}/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(basePath)}/assets/cairn-pages.css">
${script ? `<script type="module" src="${escapeHtml(basePath)}/assets/${escapeHtml(script)}"></script>` : ''}
</head>
<body><main>
${body}
</main></body>
</html>`
}

/** A page that only says something (errors, "signed out"). */
export function messagePage(title: string, message: string, basePath: string, status = 200): Response {
  return pageResponse(pageDocument(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, basePath), { status })
}
