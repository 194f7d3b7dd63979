import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { withOperationsTable } from './operations-table.js'

describe('README operations table', () => {
  it('is what the contract table and the registry say (run `npm run readme:operations` to update)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    expect(withOperationsTable(readme)).toBe(readme)
  })

  it('lists all 108 operations', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    expect(readme.match(/^\| [A-Z][A-Za-z ]+ \| `[a-z][A-Za-z]+` \| (GET|POST|PATCH|DELETE|OPTIONS|PUT) \|/gm)).toHaveLength(108)
  })
})
