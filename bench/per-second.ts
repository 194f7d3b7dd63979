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
