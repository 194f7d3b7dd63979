/**
 * A fresh fixture for every test of a suite, disposed after it, so tests never depend on each other
 * or on running in order.
 */
import { afterEach, beforeEach } from 'vitest'

/**
 * Registers beforeEach/afterEach in the calling describe block; the returned function gives the
 * current test's fixture.
 *
 * @example const fixture = eachTest(() => openStoreFixture(options), (opened) => opened.dispose())
 */
export function eachTest<F>(create: () => Promise<F>, dispose: (fixture: F) => Promise<void>): () => F {
  let current: F | undefined
  beforeEach(async () => {
    current = await create()
  })
  afterEach(async () => {
    const fixture = current
    current = undefined
    if (fixture !== undefined) await dispose(fixture)
  })
  return () => {
    if (current === undefined) throw new Error('A conformance fixture is only available inside a test')
    return current
  }
}

/** Close `closable`, ignoring a failure: a test that closed it already, or a backend gone, must not hide the test's own result. */
export async function closeQuietly(closable: { close(): Promise<void> } | undefined): Promise<void> {
  await closable?.close().catch(() => undefined)
}
