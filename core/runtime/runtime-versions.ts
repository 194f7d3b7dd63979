/** The runtime registry and reducer versions this deployment implements (docs/runtime.md). */
export const RUNTIME_REGISTRY_VERSION = 'cairn.v124.registry.1'
export const RUNTIME_REDUCER_VERSION = 'cairn.v124.reducer.1'
