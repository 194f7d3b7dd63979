/**
 * The browser bundle of the /verify page: esbuild bundles hosts/browser/verify-page.ts (and with
 * it core/proof's verifier, the very code the server runs) on first request, once per process.
 */
import { build, type BuildOptions } from 'esbuild'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

let bundle: Promise<Uint8Array> | undefined

/** How Cairn's browser code is built: one ESM file, minified, for current browsers, kept in memory. */
export const BROWSER_BUILD = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, write: false, legalComments: 'none' } as const satisfies BuildOptions

/** The page script's source: the TypeScript file, or its compiled twin when running from a build. */
function entryPoint(): string {
  const source = fileURLToPath(new URL('../browser/verify-page.ts', import.meta.url))
  return existsSync(source) ? source : source.replace(/\.ts$/u, '.js')
}

export function verifierBundle(): Promise<Uint8Array> {
  bundle ??= build({ entryPoints: [entryPoint()], ...BROWSER_BUILD }).then((result) => result.outputFiles[0]!.contents)
  bundle.catch(() => (bundle = undefined))
  return bundle
}
