/**
 * `tsx bench/ledger-pages.ts` (npm run bench:ledger-pages): what a transfer costs SQLite in pages,
 * a figure this shared VM's timing noise cannot sway. 32 clients send transfers over 64 wallets
 * (idempotency keys random, as clients make them: `crypto.randomUUID()`) on a file with
 * `synchronous=FULL` and the WAL never checkpointed; after BENCH_PAGES_GROW transfers (20,000:
 * tables of a running ledger's size, not empty ones), the WAL frames the next BENCH_PAGES_MEASURE
 * (3,200) write are counted by page and named by the B-tree each page belongs to (SQLite's `dbstat`).
 * Each frame is a page SQLite writes (and checksums) at a commit. Beside it, the same count for the
 * floor: the rows a transfer writes (two balances, entry, idempotency record, three stream entries)
 * committed as bare Store commits from 32 writers, with keys in order.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js'
import { makeTempDir } from '../conformance/support/temp-dir.js'
import { collections } from '../core/usecases/collections.js'
import { FLOOR_COLLECTIONS, floorRows } from './ledger-floor.js'
import { fundedLedger, WALLETS } from './ledger-wallets.js'

const GROW = Number(process.env.BENCH_PAGES_GROW ?? 20_000)
const MEASURE = Number(process.env.BENCH_PAGES_MEASURE ?? 3_200)
const CLIENTS = 32
const WAL_HEADER = 32
const FRAME_HEADER = 24

interface PageCount {
  readonly commits: number
  readonly frames: number
  readonly byTree: ReadonlyMap<string, number>
}

/** A SQLite file whose WAL is only ever checkpointed here, and the Store on it. */
async function openLedgerFile() {
  const dir = await makeTempDir('cairn-bench-pages-')
  const file = join(dir.path, 'ledger.sqlite')
  const db = new Database(file)
  const store = new SqliteStore({ database: db, synchronous: 'FULL' })
  await store.declare(collections)
  db.pragma('wal_autocheckpoint = 0')
  return {
    db,
    store,
    /** Runs `work` on an emptied WAL and counts the frames it wrote, per B-tree. */
    async count(work: () => Promise<void>): Promise<PageCount> {
      db.pragma('wal_checkpoint(TRUNCATE)')
      await work()
      const wal = readFileSync(`${file}-wal`)
      const pageSize = Number(db.pragma('page_size', { simple: true }))
      // Declared indexes are named by a digest: name them by their table instead.
      const indexTables = new Map((db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'").all() as { name: string; tbl_name: string }[]).map((row) => [row.name, row.tbl_name]))
      const treeOf = new Map<number, string>()
      for (const row of db.prepare('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[]) {
        const table = indexTables.get(row.name)
        treeOf.set(row.pageno, table === undefined ? row.name : `index ${row.name.startsWith('sqlite_autoindex') ? 'of the key' : row.name} on ${table}`)
      }
      const byTree = new Map<string, number>()
      let commits = 0
      let frames = 0
      for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
        frames++
        // A frame whose "database size after commit" is set ends a commit (the SQLite file format, WAL frame header).
        if (wal.readUInt32BE(at + 4) !== 0) commits++
        const tree = treeOf.get(wal.readUInt32BE(at)) ?? 'freed page'
        byTree.set(tree, (byTree.get(tree) ?? 0) + 1)
      }
      return { commits, frames, byTree }
    },
    async dispose() {
      await store.close()
      db.close()
      await dir.remove()
    },
  }
}

/** Runs `operation(i)` for i below `until`, from CLIENTS callers at once. */
async function fromClients(from: number, until: number, operation: (i: number) => Promise<void>): Promise<void> {
  let next = from
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < until) await operation(next++)
  }))
}

async function transfers(): Promise<PageCount> {
  const ledger = await openLedgerFile()
  try {
    const { users, send: sendTo } = await fundedLedger(ledger.store)
    const send = async (i: number) => {
      if (!(await sendTo(users[i % WALLETS]!, users[(i + 1) % WALLETS]!, randomUUID()))) throw new Error('A transfer was refused')
    }
    await fromClients(0, GROW, send)
    return await ledger.count(() => fromClients(GROW, GROW + MEASURE, send))
  } finally {
    await ledger.dispose()
  }
}

async function floor(): Promise<PageCount> {
  const ledger = await openLedgerFile()
  try {
    const { store } = ledger
    await store.declare(FLOOR_COLLECTIONS)
    const commitRows = async (n: number) => {
      const outcome = await store.commit(floorRows(n))
      if (!outcome.ok) throw new Error(`A floor commit conflicted: ${outcome.conflict._tag}`)
    }
    await fromClients(0, GROW, commitRows)
    return await ledger.count(() => fromClients(GROW, GROW + MEASURE, commitRows))
  } finally {
    await ledger.dispose()
  }
}

function report(name: string, count: PageCount): void {
  console.log(`\n${name}: ${(count.frames / MEASURE).toFixed(2)} pages per transfer; ${count.commits} commits of ${(count.frames / Math.max(1, count.commits)).toFixed(1)} pages\n`)
  console.log('| B-tree | pages per commit |')
  console.log('|---|---:|')
  for (const [tree, frames] of [...count.byTree].sort((a, b) => b[1] - a[1])) console.log(`| ${tree} | ${(frames / Math.max(1, count.commits)).toFixed(1)} |`)
}

console.log(`bench:ledger-pages — SQLite (synchronous=FULL), WAL pages for ${MEASURE} transfers after ${GROW}, ${CLIENTS} clients, ${WALLETS} wallets, node ${process.version}`)
report('the floor (a transfer\'s rows as bare commits, keys in order)', await floor())
report('transfers', await transfers())
