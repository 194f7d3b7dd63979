/**
 * Which operations this deployment serves (the registry's keys). Loaded lazily: the registry
 * imports every area's use cases, qualification among them, so a static import would be a cycle.
 */
let built: ReadonlySet<string> | undefined

/** @example (await builtOperations()).has('getJwks') // true */
export async function builtOperations(): Promise<ReadonlySet<string>> {
  built ??= new Set(Object.keys((await import('../usecases/registry.js')).useCases))
  return built
}
