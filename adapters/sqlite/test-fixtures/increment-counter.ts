/**
 * A child process of sqlite-multiprocess.test.ts: increments the counter document `counters/c` of the
 * SQLite file in argv[2] argv[3] times, by read-then-commit with an expected version, retrying on
 * conflict; prints how many conflicts it met. It prints `ready` once its store is open and starts
 * when a line arrives on stdin, so all processes race from the same moment.
 */
import { once } from 'node:events'
import { SqliteStore } from '../sqlite-store.js'

const [file, times] = [process.argv[2]!, Number(process.argv[3])]
const store = new SqliteStore({ file, busyTimeoutMs: 10_000 })
await store.get('counters', 'c')
process.stdout.write('ready\n')
await once(process.stdin, 'data')
process.stdin.pause()
let conflicts = 0
for (let done = 0; done < times; ) {
  const current = await store.get<{ n: number }>('counters', 'c')
  const outcome = await store.commit([
    { kind: 'put', collection: 'counters', key: 'c', value: { n: current!.value.n + 1 }, expect: { kind: 'version', version: current!.version } },
  ])
  if (outcome.ok) done += 1
  else conflicts += 1
  // Yield to the event loop now and then so the processes interleave rather than run in bursts.
  if (done % 5 === 0) await new Promise((resolve) => setImmediate(resolve))
}
await store.close()
process.stdout.write(`${conflicts}\n`)
