/**
 * The second process of bench:ledger's two-host row: a host of its own on the same data (argv[2],
 * a `SecondHost` as JSON: the SQLite file, or the PostgreSQL database and schema), as a second
 * `cairn serve` on one data dir or one database would be. Prints `ready`, waits for `go` on
 * its stdin, then for argv[5] seconds from argv[4] concurrent loops either sends transfers between
 * the wallets of argv[3] (a JSON array of user ids), or, with argv[6] `seals`, seals 1 KiB files
 * into the same log; and prints what it did as one JSON line: operations done, operations refused
 * or failed, Store commits (lost races included) and its CPU time in µs.
 */
import { createInterface } from 'node:readline'
import * as E from 'fp-ts/lib/Either.js'
import { PostgresStore } from '../adapters/postgres/postgres-store.js'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { sealArtifact } from '../core/proof/seal-artifact.js'
import { aroundCommit } from '../conformance/support/around-commit.js'
import { ledgerDeps, sender, type SecondHost } from './ledger-wallets.js'

const [where, walletsJson, clients, seconds, work = 'transfers'] = process.argv.slice(2)
const wallets = JSON.parse(walletsJson!) as string[]
const data = JSON.parse(where!) as SecondHost
const opened = data.kind === 'sqlite' ? new SqliteStore({ file: data.file }) : new PostgresStore({ ...data.options, poolSize: 40 })
let commits = 0
const store = aroundCommit(opened, (writes, commit) => (commits++, commit(writes)))
const deps = ledgerDeps(store)
const send = sender(deps)
/** One operation of the chosen work, numbered `i`: true when it was done. */
const operation = work === 'seals'
  ? async (i: number) => E.isRight(await sealArtifact(deps, { bytes: new TextEncoder().encode(`second-host-${i}:`.padEnd(1024, '.')), filename: 'file.txt', mimeType: 'text/plain' }, { sealKind: 'integrity-seal', actorUserId: null }))
  : (i: number) => send(wallets[i % wallets.length]!, wallets[(i + 1) % wallets.length]!, `second-host-${i}`)

console.log('ready')
for await (const line of createInterface({ input: process.stdin })) if (line.trim() === 'go') break
const cpu = process.cpuUsage()
const deadline = performance.now() + Number(seconds) * 1000
let next = 0
let done = 0
let refused = 0
await Promise.all(Array.from({ length: Number(clients) }, async () => {
  while (performance.now() < deadline) {
    if (await operation(next++)) done++
    else refused++
  }
}))
const used = process.cpuUsage(cpu)
console.log(JSON.stringify({ done, refused, commits, cpuMicros: used.user + used.system }))
await opened.close()
