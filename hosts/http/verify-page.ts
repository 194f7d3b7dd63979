/**
 * GET /verify and GET /verify/{code}: the public verification page (a static page whose script
 * verifies a dropped file in the browser), the script itself, and GET /proof/keys, the trust
 * material (proof key set kept forever, pinned log key) that `cairn verify --trust` also reads.
 */
import * as E from 'fp-ts/lib/Either.js'
import { notFound } from '../../core/errors/domain-error.js'
import { recordByCode } from '../../core/proof/digest-records.js'
import { sealByCode } from '../../core/proof/seal-records.js'
import { serviceTrust } from '../../core/proof/service-trust.js'
import type { PublicRoute } from '../../core/releases/routes.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import { verifierBundle } from './verifier-bundle.js'

const json = (value: unknown) => JSON.stringify(value).replace(/</gu, '\\u003c')
const escape = (text: string) => text.replace(/[&<>"]/gu, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

function page(basePath: string, trust: unknown, expected: { code: string; sha256: string; kind: string; createdAt: string } | null): string {
  const heading = expected ? `Seal ${escape(expected.code)}` : 'Verify a sealed file'
  const intro = expected
    ? `<p>The registry holds a ${escape(expected.kind)} of bytes with SHA-256 <code>${escape(expected.sha256)}</code>, made ${escape(expected.createdAt)}. Drop your copy to check it; the registry is not the authority, your bytes are.</p>`
    : '<p>Drop a sealed PNG, SVG, PDF, JSON file or package artifact. It is verified here in your browser with WebCrypto; nothing is uploaded.</p>'
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${heading} · Cairn</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
#drop{border:2px dashed #888;border-radius:12px;padding:2rem;text-align:center;background:#fafafa}
#drop.over{background:#eef6ff;border-color:#3a7bd5}
.verdict{margin-top:1.5rem;padding:1rem 1.25rem;border-radius:12px;background:#f3f3f3}
.verdict.ok{background:#e8f6ec;border:1px solid #2e8b57}.verdict.bad{background:#fdecec;border:1px solid #c0392b}
.row{display:flex;gap:1rem}.label{min-width:9rem;color:#555}code,[data-testid=sha256]{word-break:break-all}
</style></head>
<body>
<h1>${heading}</h1>
${intro}
<div id="drop"><p>Drop a file here, or</p><input type="file" id="file"></div>
<div id="verdict" class="verdict" aria-live="polite">No file yet.</div>
<p><small>Trust: the service's proof key set and log key, embedded in this page (also at <a href="${basePath}/proof/keys">/proof/keys</a>). Offline: <code>cairn verify &lt;file&gt; --trust keys.json</code>.</small></p>
<script type="application/json" id="cairn-trust">${json(trust)}</script>
<script type="application/json" id="cairn-expected">${json(expected)}</script>
<script type="module" src="${basePath}/proof/verifier.js"></script>
</body></html>
`
}

const html = (text: string) => ({ kind: 'bytes' as const, contentType: 'text/html; charset=utf-8', bytes: new TextEncoder().encode(text), headers: { 'cache-control': 'no-store' } })

export function verifyPageRoutes(deps: CoreDeps, ready: Promise<void> = Promise.resolve()): PublicRoute[] {
  const basePath = new URL(deps.config.baseUrl).pathname.replace(/\/+$/u, '')
  return [
    { method: 'GET', path: '/verify', handle: async () => E.right(html(page(basePath, await serviceTrust(deps), null))) },
    {
      method: 'GET',
      path: '/proof/verifier.js',
      handle: async () => E.right({ kind: 'bytes', contentType: 'text/javascript; charset=utf-8', bytes: await verifierBundle(), headers: { 'cache-control': 'public, max-age=300' } }),
    },
    {
      method: 'GET',
      path: '/verify/:code',
      handle: async ({ params }) => {
        await ready
        const code = params['code'] ?? ''
        const seal = await sealByCode(deps, code)
        const record = seal ? undefined : await recordByCode(deps, code)
        if (!seal && !record) return E.left(notFound(`No seal or record has the code ${code}`))
        const expected = seal
          ? { code, sha256: seal.sha256, kind: seal.sealKind, createdAt: seal.statement.bundle.ts }
          : { code, sha256: record!.sha256, kind: 'record', createdAt: new Date(record!.createdAtMs).toISOString() }
        return E.right(html(page(basePath, await serviceTrust(deps), expected)))
      },
    },
    {
      method: 'GET',
      path: '/proof/keys',
      handle: async () => {
        const trust = await serviceTrust(deps)
        return E.right({ kind: 'json', body: { keys: trust.proofKeys, logKeys: trust.logKeys }, headers: { 'cache-control': 'public, max-age=60' } })
      },
    },
  ]
}
