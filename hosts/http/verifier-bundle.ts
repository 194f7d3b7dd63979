/**
 * The browser bundle of the /verify page: hosts/browser/verify-page.ts bundled by esbuild, and with
 * it core/proof's verifier, the very code the server runs. A built package ships it prebuilt
 * (`npm run build` writes `verify-page.bundle.js` beside this module, scripts/build-browser-assets.ts),
 * so esbuild — a build tool — is no dependency of a deployment; a checkout running from source
 * bundles on first request instead, once per process.
 */
import type { BuildOptions } from 'esbuild'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

let bundle: Promise<Uint8Array> | undefined

/** How Cairn's browser code is built: one ESM file, minified, for current browsers, kept in memory. */
export const BROWSER_BUILD = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, write: false, legalComments: 'none' } as const satisfies BuildOptions

/** The prebuilt bundle's file name; a build puts it next to this module in dist/. */
export const VERIFIER_BUNDLE_FILE = 'verify-page.bundle.js'
const PREBUILT_VERIFIER = fileURLToPath(new URL(`./${VERIFIER_BUNDLE_FILE}`, import.meta.url))

/** The page script's source: the TypeScript file, or its compiled twin when running from a build. */
function verifierEntryPoint(): string {
  const source = fileURLToPath(new URL('../browser/verify-page.ts', import.meta.url))
  return existsSync(source) ? source : source.replace(/\.ts$/u, '.js')
}

/** Bundles the page script with esbuild (a development dependency). */
export async function buildVerifierBundle(): Promise<Uint8Array> {
  const { build } = await import('esbuild')
  const result = await build({ entryPoints: [verifierEntryPoint()], ...BROWSER_BUILD })
  return result.outputFiles[0]!.contents
}

export function verifierBundle(): Promise<Uint8Array> {
  bundle ??= existsSync(PREBUILT_VERIFIER) ? readFile(PREBUILT_VERIFIER).then((bytes) => new Uint8Array(bytes)) : buildVerifierBundle()
  bundle.catch(() => (bundle = undefined))
  return bundle
}
