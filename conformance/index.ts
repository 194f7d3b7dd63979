/** The conformance suites every adapter combination must pass, for adapter authors (see README.md). */
export { describeStoreConformance } from './store-conformance.js'
export { describeBlobStoreConformance } from './blob-store-conformance.js'
export { describeEventBusConformance } from './event-bus-conformance.js'
export { describeKeyStoreConformance } from './key-store-conformance.js'
export { describeCombinationConformance, type CombinationConformanceOptions } from './combination-conformance.js'
export { describeIdentityScenario, type IdentityScenarioOptions } from './scenarios/identity-scenario.js'
export { describeTransparencyLogScenario, type TransparencyLogScenarioOptions } from './scenarios/transparency-log-scenario.js'
export { withFaults, InjectedFaultError, type Fault, type FaultyStore, type StoreMethod } from './fault-injection.js'
export type { BlobBackend, StoreBackend } from './backends/types.js'
export type {
  BlobStoreConformanceOptions,
  BlobStoreFixture,
  EventBusConformanceOptions,
  EventBusFixture,
  KeyStoreConformanceOptions,
  KeyStoreFixture,
  StoreConformanceOptions,
  StoreFixture,
  StoreInspector,
} from './targets.js'
