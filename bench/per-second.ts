/** Calls per second of `run` over `seconds`, after a warm-up of the same length (sequential awaits). */
export async function perSecond(run: () => Promise<unknown>, seconds: number): Promise<number> {
  for (const measure of [false, true]) {
    const started = performance.now()
    let calls = 0
    while (performance.now() - started < seconds * 1000) {
      await run()
      calls++
    }
    if (measure) return calls / ((performance.now() - started) / 1000)
  }
  throw new Error('unreachable')
}

/** Print rows of calls per second as the CPU-bound benchmarks do: a header, then calls/s and µs per call. */
export function printRates(rows: readonly (readonly [string, number])[], seconds: number): void {
  console.log(`node ${process.version}, ${seconds}s per row after an equal warm-up, sequential awaits, memory adapters`)
  console.log('operation                          calls/s   µs/call')
  for (const [name, rate] of rows) console.log(`${name.padEnd(32)} ${rate.toFixed(0).padStart(9)} ${(1e6 / rate).toFixed(1).padStart(9)}`)
}
