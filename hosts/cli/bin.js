#!/usr/bin/env node
// Cairn ships as TypeScript; tsx compiles it on load so `cairn` runs from a fresh install.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./main.ts')
process.exitCode = await main(process.argv.slice(2), process.env)
