/** `npm run readme:operations`: rewrite the operations table in README.md from the contract. */
import { readFileSync, writeFileSync } from 'node:fs'
import { withOperationsTable } from './operations-table.js'

const path = new URL('../README.md', import.meta.url)
const before = readFileSync(path, 'utf8')
const after = withOperationsTable(before)
if (after !== before) writeFileSync(path, after)
console.log(after === before ? 'README.md operations table is up to date' : 'README.md operations table updated')
