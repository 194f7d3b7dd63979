/** Writes the golden vectors of cairn.proof.v1 to core/proof/golden/ (see conformance/proof/golden.ts). */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalJson } from '../core/digest/canonical-json.js'
import { buildGoldenVectors, vectorsModule } from '../conformance/proof/golden.js'

const dir = join(import.meta.dirname, '..', 'core', 'proof', 'golden')
mkdirSync(dir, { recursive: true })
const { trust, vectors } = await buildGoldenVectors()
for (const vector of vectors) writeFileSync(join(dir, vector.file), vector.bytes)
writeFileSync(join(dir, 'trust.json'), `${JSON.stringify(JSON.parse(canonicalJson(trust)), null, 2)}\n`)
writeFileSync(join(dir, 'expected.json'), `${JSON.stringify(vectors.map(({ name, file, expected }) => ({ name, file, expected })), null, 2)}\n`)
writeFileSync(join(dir, 'vectors.ts'), vectorsModule(trust, vectors))
console.log(`wrote ${vectors.length} golden vectors to ${dir}`)
