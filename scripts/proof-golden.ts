/**
 * Writes the golden vectors of the current format (cairn.proof.v2) to core/proof/golden/v2/ (see
 * conformance/proof/golden.ts). The cairn.proof.v1 set in core/proof/golden/ is frozen: sealing no
 * longer writes v1, and those files must keep verifying as recorded.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalJson } from '../core/digest/canonical-json.js'
import { buildGoldenVectors, vectorsModule } from '../conformance/proof/golden.js'

const dir = join(import.meta.dirname, '..', 'core', 'proof', 'golden', 'v2')
mkdirSync(dir, { recursive: true })
const { trust, vectors } = await buildGoldenVectors()
for (const vector of vectors) writeFileSync(join(dir, vector.file), vector.bytes)
writeFileSync(join(dir, 'trust.json'), `${JSON.stringify(JSON.parse(canonicalJson(trust)), null, 2)}\n`)
writeFileSync(join(dir, 'expected.json'), `${JSON.stringify(vectors.map(({ name, file, expected }) => ({ name, file, expected })), null, 2)}\n`)
writeFileSync(join(dir, 'vectors.ts'), vectorsModule(trust, vectors))
console.log(`wrote ${vectors.length} golden vectors to ${dir}`)
