/**
 * `npm run bench:client`: what `cairn/client` costs a browser app — the esbuild bundle of its
 * whole entry point and of what a verify-only page imports, minified, raw and gzip (level 9),
 * next to the /verify page's own script (the baseline, built the same way in this run).
 */
import { gzipSync } from 'node:zlib'
import { bundleForBrowser } from '../hosts/browser/client-bundle.js'
import { verifierBundle } from '../hosts/http/verifier-bundle.js'

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const row = (name: string, bytes: Uint8Array) => console.log(`${name.padEnd(40)} ${kib(bytes.length).padStart(10)} ${kib(gzipSync(bytes, { level: 9 }).length).padStart(10)}`)

console.log(`${'bundle (esbuild, minified, es2022)'.padEnd(40)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`)
row('baseline: /proof/verifier.js', await verifierBundle())
row('cairn/client, whole entry point', await bundleForBrowser(`export * from './index.js'`))
row('cairn/client, verify only', await bundleForBrowser(`export { verifySealedFile } from './index.js'`))
row('cairn/client, typed calls only', await bundleForBrowser(`export { createCairnClient } from './index.js'`))
