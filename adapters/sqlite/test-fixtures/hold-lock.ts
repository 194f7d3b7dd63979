/**
 * A child process of sqlite-busy.test.ts: opens the SQLite file argv[2], takes its lock with
 * `BEGIN <argv[3]>` (IMMEDIATE: the write lock; EXCLUSIVE: readers too, on a file not yet in WAL
 * mode), prints `locked`, holds it for argv[4] ms, then rolls back, prints `released` and exits.
 */
import Database from 'better-sqlite3'

const [file, mode, holdMs] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])]
const db = new Database(file)
db.exec(`BEGIN ${mode === 'EXCLUSIVE' ? 'EXCLUSIVE' : 'IMMEDIATE'}`)
if (mode === 'EXCLUSIVE') db.exec('CREATE TABLE IF NOT EXISTS held (x)')
process.stdout.write('locked\n')
setTimeout(() => {
  db.exec('ROLLBACK')
  db.close()
  process.stdout.write('released\n')
}, holdMs)
