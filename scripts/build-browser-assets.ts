/**
 * `npm run build`'s last step: the /verify page's browser bundle, built once into dist/ beside the
 * module that serves it (hosts/http/verifier-bundle.ts), so a deployment never needs esbuild.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildVerifierBundle, VERIFIER_BUNDLE_FILE } from '../hosts/http/verifier-bundle.js'

const target = join('dist', 'hosts', 'http', VERIFIER_BUNDLE_FILE)
writeFileSync(target, await buildVerifierBundle())
