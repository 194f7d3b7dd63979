/**
 * The browser build of `cairn/client`: esbuild bundles an entry that imports the client (plain
 * ESM, minified, for browsers: the /verify page's build settings). The browser test and the
 * bundle-size benchmark build it this way.
 */
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { BROWSER_BUILD } from '../http/verifier-bundle.js'

const CLIENT_DIR = fileURLToPath(new URL('../../client/', import.meta.url))

/** Bundles `source` (ESM that imports './index.js' from the client directory) for browsers. */
export async function bundleForBrowser(source: string): Promise<Uint8Array> {
  const result = await build({ stdin: { contents: source, resolveDir: CLIENT_DIR, loader: 'ts', sourcefile: 'entry.ts' }, ...BROWSER_BUILD })
  return result.outputFiles[0]!.contents
}
