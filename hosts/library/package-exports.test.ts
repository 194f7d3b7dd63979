/**
 * Every public entry point in package.json `exports` names a build of a source file that exists,
 * and that source loads. (hosts/package/pack.test.ts loads the built files from an installed tarball.)
 */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

type Target = { types: string; default: string }
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, Target | string>
  bin: Record<string, string>
  types: string
}
const entries = Object.entries(manifest.exports).filter((entry): entry is [string, Target] => entry[0] !== './package.json')
/** `./dist/x/y.js` → `./x/y.ts`: the build mirrors the source tree (tsconfig.build.json). */
const sourceOf = (built: string) => built.replace(/^\.\/dist\//, './').replace(/\.(d\.ts|js)$/, '.ts')

describe('package exports', () => {
  it.each(entries)('%s points at the build of a source that loads', async (_name, target) => {
    expect(target.default).toMatch(/^\.\/dist\/.+\.js$/)
    expect(target.types).toBe(target.default.replace(/\.js$/, '.d.ts'))
    const source = new URL(`../../${sourceOf(target.default)}`, import.meta.url)
    expect(existsSync(source)).toBe(true)
    const module = (await import(source.href)) as Record<string, unknown>
    expect(Object.keys(module).length).toBeGreaterThan(0)
  })

  it('the bin and the types are built files too', () => {
    expect(manifest.bin.cairn).toBe('./dist/hosts/cli/bin.js')
    expect(existsSync(new URL(`../../${sourceOf(manifest.bin.cairn!)}`, import.meta.url))).toBe(true)
    expect(manifest.types).toBe((manifest.exports['.'] as Target).types)
  })

  it('names the library, core, ports, every adapter, every host and conformance', () => {
    expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining([
      '.', './core', './ports', './adapters/memory', './adapters/sqlite', './adapters/fs', './adapters/mongodb', './adapters/s3',
      './hosts/http', './hosts/library', './conformance',
    ]))
  })
})
