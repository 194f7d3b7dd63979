/** Waiting for something asynchronous (a bus delivery across hosts) without fixed sleeps. */

/**
 * Resolves once `check` stops throwing; rethrows its last error after `timeoutMs`.
 *
 * @example await eventually(() => expect(received).toEqual([1, 2, 3]))
 */
export async function eventually(check: () => void, timeoutMs = 5000, intervalMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      check()
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
}

/** Let in-flight deliveries land: used only to show that something did NOT arrive. */
export function settle(ms = 100): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
