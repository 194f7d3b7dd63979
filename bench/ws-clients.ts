/**
 * The client side of `npm run bench:ws`, in its own process so the server under test has its event
 * loop to itself: opens SOCKETS sockets to argv[2] (sending argv[3] on each, if given, and waiting
 * for `subscribed`), prints `ready`, then for every update prints `done <n>` once all sockets have
 * it, and finally one JSON line of latencies (publish time to arrival, on the shared wall clock).
 */
import WebSocket from 'ws'

const [url, subscribeFrame] = process.argv.slice(2) as [string, string | undefined]
const SOCKETS = Number(process.env.SOCKETS ?? 1000)
const UPDATES = Number(process.env.UPDATES ?? 50)
/** Updates before the measured ones (JIT and socket warm-up), not counted. */
const WARMUP = Number(process.env.WARMUP ?? 5)
const now = () => performance.timeOrigin + performance.now()

const latencies: number[] = []
const arrivals = new Map<number, number>()
let opened = 0
const onUpdate = (text: string) => {
  const sentAt = Number(/"sentAt":([0-9.]+)/.exec(text)?.[1])
  const sequence = Number(/"sequence":([0-9]+)/.exec(text)?.[1])
  if (sequence >= WARMUP) latencies.push(now() - sentAt)
  const count = (arrivals.get(sequence) ?? 0) + 1
  arrivals.set(sequence, count)
  if (count === SOCKETS) {
    process.stdout.write(`done ${sequence}\n`)
    if (sequence === WARMUP + UPDATES - 1) process.stdout.write(`${JSON.stringify(latencies)}\n`)
  }
}
for (let batch = 0; batch < SOCKETS; batch += 100) {
  await Promise.all(Array.from({ length: Math.min(100, SOCKETS - batch) }, () => new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(url)
    socket.on('message', (raw) => {
      const text = raw.toString()
      if (text.includes('"subscribed"')) return resolve()
      onUpdate(text)
    })
    socket.once('open', () => (subscribeFrame ? socket.send(subscribeFrame) : resolve()))
    socket.once('error', reject)
  })))
  opened += Math.min(100, SOCKETS - batch)
}
process.stdout.write(`ready ${opened}\n`)
