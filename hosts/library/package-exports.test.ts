/** Every public entry point in package.json `exports` resolves and loads. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string> }

describe('package exports', () => {
  it.each(Object.entries(manifest.exports).filter(([name]) => name !== './package.json'))('%s loads', async (_name, target) => {
    const module = (await import(new URL(`../../${target}`, import.meta.url).href)) as Record<string, unknown>
    expect(Object.keys(module).length).toBeGreaterThan(0)
  })

  it('names the library, core, ports, every adapter, every host and conformance', () => {
    expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining([
      '.', './core', './ports', './adapters/memory', './adapters/sqlite', './adapters/fs', './adapters/mongodb', './adapters/s3',
      './hosts/http', './hosts/library', './conformance',
    ]))
  })
})
