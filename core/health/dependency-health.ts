/**
 * Real dependency health: each port answers one cheap read (the Store a stream head, the BlobStore a
 * presence check, the KeyStore its key set) within a time budget. Readiness (`/readyz`) and
 * runtime qualification both ask it. A port that fails or does not
 * answer in time is `unavailable`; one that answers slowly is `degraded`. Nothing is written.
 */
import type { CoreDeps } from '../usecases/use-case.js'

export type Availability = 'available' | 'degraded' | 'unavailable'

/** The ports every deployment has, by the names reports use. */
export type DependencyName = 'store' | 'blobs' | 'keys'

export interface DependencyHealth {
  readonly status: Availability
  /** Milliseconds the probe took (by the Clock port), or null when it failed or timed out. */
  readonly latencyMs: number | null
}

export interface HealthBudget {
  /** Slower than this is degraded. @default 500 */
  readonly degradedAfterMs: number
  /** No answer by then is unavailable. @default 2000 */
  readonly unavailableAfterMs: number
}

const DEFAULT_BUDGET: HealthBudget = { degradedAfterMs: 500, unavailableAfterMs: 2000 }

/** SHA-256 of no bytes: a blob address every BlobStore can look up. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

const PROBES: Readonly<Record<DependencyName, (deps: Pick<CoreDeps, 'store' | 'blobs' | 'keys'>) => Promise<unknown>>> = {
  store: (deps) => deps.store.streamHead('health.probe'),
  blobs: (deps) => deps.blobs.has(EMPTY_SHA256),
  keys: (deps) => deps.keys.jwks(),
}

/** @example const health = await probeDependencies(deps) // { store: { status: 'available', latencyMs: 1 }, … } */
export async function probeDependencies(
  deps: Pick<CoreDeps, 'store' | 'blobs' | 'keys' | 'clock'>,
  budget: HealthBudget = DEFAULT_BUDGET,
  onFailure?: (name: DependencyName, error: unknown) => void,
): Promise<Readonly<Record<DependencyName, DependencyHealth>>> {
  const names = Object.keys(PROBES) as DependencyName[]
  const results = await Promise.all(names.map((name) => probe(deps, PROBES[name], budget, (error) => onFailure?.(name, error))))
  return Object.fromEntries(names.map((name, i) => [name, results[i]!])) as Record<DependencyName, DependencyHealth>
}

async function probe(
  deps: Pick<CoreDeps, 'store' | 'blobs' | 'keys' | 'clock'>,
  read: (deps: Pick<CoreDeps, 'store' | 'blobs' | 'keys'>) => Promise<unknown>,
  budget: HealthBudget,
  failed: (error: unknown) => void,
): Promise<DependencyHealth> {
  const started = deps.clock.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budget.unavailableAfterMs)
  })
  try {
    const outcome = await Promise.race([read(deps).then(() => 'answered' as const), timedOut])
    if (outcome === 'timeout') {
      failed(new Error(`no answer within ${budget.unavailableAfterMs} ms`))
      return { status: 'unavailable', latencyMs: null }
    }
    const latencyMs = Math.max(0, deps.clock.now() - started)
    return { status: latencyMs > budget.degradedAfterMs ? 'degraded' : 'available', latencyMs }
  } catch (error) {
    failed(error)
    return { status: 'unavailable', latencyMs: null }
  } finally {
    clearTimeout(timer)
  }
}
