/**
 * The browser bundle of the /verify page: esbuild bundles hosts/browser/verify-page.ts (and with
 * it core/proof's verifier, the very code the server runs) on first request, once per process.
 */
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

let bundle: Promise<Uint8Array> | undefined

export function verifierBundle(): Promise<Uint8Array> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('../browser/verify-page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    legalComments: 'none',
  }).then((result) => result.outputFiles[0]!.contents)
  bundle.catch(() => (bundle = undefined))
  return bundle
}
