/**
 * The layering as an executable check (domain-driven-hexagon's .dependency-cruiser.js habit):
 * core imports no adapter, no host and no I/O module; adapters never import hosts; core's areas
 * never import the registry that composes them; the client imports core alone.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

const IO_MODULES = [/^node:fs/, /^fs(\/|$)/, /^node:net$/, /^net$/, /^node:http/, /^https?$/, /^node:https$/, /^mongodb$/, /^@aws-sdk\//, /^h3(\/|$)/, /^ws$/, /^better-sqlite3$/, /^node:child_process$/, /^node:dgram$/]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : []
  })
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
export function importsOf(source: string): string[] {
  const found = new Set<string>()
  for (const m of source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) found.add(m[1]!)
  for (const m of source.matchAll(/import\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.add(m[1]!)
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.add(m[1]!)
  return [...found]
}

function layerOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  return relative(root, resolve(dirname(file), specifier)).split('/')[0]
}

describe('dependency rule', () => {
  it('reads imports of every shape', () => {
    expect(importsOf(`import a from 'x'\nexport { b } from "y"\nconst c = await import('z')\nimport 'w'`).sort()).toEqual(['w', 'x', 'y', 'z'])
  })

  it('keeps core free of adapters, hosts and I/O modules', () => {
    const violations = sourceFiles(join(root, 'core')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((s) => IO_MODULES.some((p) => p.test(s)) || ['adapters', 'hosts', 'conformance'].includes(layerOf(file, s) ?? ''))
        .map((s) => `${relative(root, file)} imports ${s}`),
    )
    expect(violations).toEqual([])
  })

  it('keeps the registry out of the areas it composes', () => {
    const registry = join(root, 'core', 'usecases', 'registry.ts')
    const composers = new Set([registry, join(root, 'core', 'index.ts')])
    const violations = sourceFiles(join(root, 'core'))
      .filter((file) => !composers.has(file))
      .flatMap((file) =>
        importsOf(readFileSync(file, 'utf8'))
          .filter((s) => s.startsWith('.') && resolve(dirname(file), s).replace(/\.js$/, '.ts') === registry)
          .map((s) => `${relative(root, file)} imports ${s}`),
      )
    expect(violations).toEqual([])
  })

  it('keeps ports free of everything but ports', () => {
    const violations = sourceFiles(join(root, 'ports')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((s) => !s.startsWith('.') || layerOf(file, s) !== 'ports')
        .map((s) => `${relative(root, file)} imports ${s}`),
    )
    expect(violations).toEqual([])
  })

  it('keeps adapters from importing hosts', () => {
    const violations = sourceFiles(join(root, 'adapters')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((s) => layerOf(file, s) === 'hosts')
        .map((s) => `${relative(root, file)} imports ${s}`),
    )
    expect(violations).toEqual([])
  })

  it('keeps the client (cairn/client) on core alone, with no Node module, so it bundles for browsers', () => {
    const violations = sourceFiles(join(root, 'client')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((s) => /^node:/.test(s) || IO_MODULES.some((p) => p.test(s)) || ['adapters', 'hosts', 'conformance', 'ports'].includes(layerOf(file, s) ?? ''))
        .map((s) => `${relative(root, file)} imports ${s}`),
    )
    expect(violations).toEqual([])
  })

  it('catches a violation when one is planted', () => {
    const planted = importsOf(`import { MongoClient } from 'mongodb'`)
    expect(planted.some((s) => IO_MODULES.some((p) => p.test(s)))).toBe(true)
  })
})
