/**
 * What a backend module of the conformance matrix provides: factories of fresh fixtures for the ports
 * it implements. The matrix (conformance/matrix.ts) pairs every store backend with every blob backend.
 */
import type {
  BlobStoreConformanceOptions,
  EventBusConformanceOptions,
  KeyStoreConformanceOptions,
  StoreConformanceOptions,
} from '../targets.js'

/** A Store backend, with the EventBus and KeyStore a deployment on it uses (when they differ from memory). */
export interface StoreBackend {
  readonly store: StoreConformanceOptions['create']
  readonly capabilities?: StoreConformanceOptions['capabilities']
  /** @default 40 */
  readonly propertyRuns?: number
  readonly eventBus?: EventBusConformanceOptions['create']
  readonly keyStore?: KeyStoreConformanceOptions['create']
}

export interface BlobBackend {
  readonly blobs: BlobStoreConformanceOptions['create']
}
