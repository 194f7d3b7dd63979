/**
 * The browser build of `cairn/client`: esbuild bundles an entry that imports the client (plain
 * ESM, minified, for browsers). The browser test and the bundle-size benchmark build the same way.
 */
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const CLIENT_DIR = fileURLToPath(new URL('../../client/', import.meta.url))

/** Bundles `source` (ESM that imports './index.js' from the client directory) for browsers. */
export async function bundleForBrowser(source: string): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents: source, resolveDir: CLIENT_DIR, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    legalComments: 'none',
  })
  return result.outputFiles[0]!.contents
}
