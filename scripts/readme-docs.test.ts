/** The README lists every page under docs/, so none is found only by browsing the tree. */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../', import.meta.url)

describe('the README documentation list', () => {
  it.each(readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')))('names docs/%s', (page) => {
    expect(readFileSync(new URL('README.md', root), 'utf8')).toContain(`\`docs/${page}\``)
  })
})
