#!/usr/bin/env node
// The `cairn` command. Published as dist/hosts/cli/bin.js; `npm start` runs this source under tsx.
import { main } from './main.js'

process.exitCode = await main(process.argv.slice(2), process.env)
