import type { WebhookWorkerOptions } from './webhook-worker.js'
import type { DeploymentConfig } from '../../core/config/deployment-config.js'
import type { Authenticator } from '../../core/auth/authenticator.js'
import type { BlobStore } from '../../ports/blob-store.js'
import type { Clock } from '../../ports/clock.js'
import type { Entropy } from '../../ports/entropy.js'
import type { EventBus } from '../../ports/event-bus.js'
import type { KeyStore } from '../../ports/key-store.js'
import type { Store } from '../../ports/store.js'
import type { PaymentProcessor } from '../../ports/payment-processor.js'
import type { TextGenerator } from '../../ports/text-generator.js'
import type { ImageGenerator } from '../../ports/image-generator.js'
import type { SweeperSettings } from './sweeper.js'
import type { BodyLimits } from '../http/limits.js'
import type { CairnLogger } from '../http/logger.js'
import type { CairnMetrics } from '../http/metrics.js'
import type { StorageSettings } from './select-adapters.js'

/** Everything an embedding team can choose; every port defaults to its in-memory adapter. */
export interface CairnOptions {
  /** Public base URL: OIDC issuer, the OpenAPI server entry, links. @default 'http://127.0.0.1:8787' */
  readonly baseUrl?: string
  /** OAuth clients and Business-tier accounts. @default none */
  readonly deployment?: DeploymentConfig
  /**
   * Adapters chosen by strings (`{ store: 'mongodb://…', blobs: 's3://…' }`, or a `dataDir`);
   * an adapter given directly below wins over its string. @default everything in memory
   */
  readonly storage?: StorageSettings
  /** @default SystemClock */
  readonly clock?: Clock
  /** @default CryptoEntropy */
  readonly entropy?: Entropy
  /** @default MemoryStore */
  readonly store?: Store
  /** @default MemoryBlobStore */
  readonly blobs?: BlobStore
  /** @default MemoryEventBus */
  readonly events?: EventBus
  /** @default MemoryKeyStore */
  readonly keys?: KeyStore
  /** Checkout's payment processor. @default chosen by `deployment.payments` (the test processor) */
  readonly payments?: PaymentProcessor
  /** Creator runs and Live Twin replies. @default the deterministic built-in generator (no model, no network) */
  readonly text?: TextGenerator
  /** Card art. @default the procedural built-in generator (deterministic, offline) */
  readonly images?: ImageGenerator
  /** The authentication boundary. @default sessions, bearer tokens from the OIDC provider, configured clients */
  readonly authenticator?: Authenticator
  /** @default DEFAULT_BODY_LIMITS */
  readonly limits?: BodyLimits
  /**
   * How often this host folds sequenced log leaves into tiles and a signed checkpoint
   * (docs/transparency-log.md); `false` leaves integration to other hosts or to explicit calls.
   * @default { intervalMs: 200 }
   */
  readonly logIntegration?: false | { readonly intervalMs?: number }
  /** Structured JSON logs (pino or anything with info/warn/error). @default createLogger(): JSON lines on stdout */
  readonly logger?: CairnLogger
  /** Where unexpected failures are reported; wins over `logger` for them. @default logger.error */
  readonly logError?: (error: unknown, context: string, requestId?: string) => void
  /**
   * Prometheus metrics (`createMetrics()`): requests and latency per operation and status, store
   * commit latency and conflicts. Serve `metrics.scrape()` where you like. @default none: off
   */
  readonly metrics?: CairnMetrics
  /**
   * The expiry sweeper (docs/architecture.md: retention): a run every `intervalMs` (default 5
   * minutes) examining at most `batch` records per kind; `false` turns the timer off (`sweepExpired`
   * still runs on demand). @default {}
   */
  readonly sweep?: SweeperSettings | false
  /** The webhook delivery worker this process runs (docs/webhooks.md). */
  readonly webhooks?: WebhookWorkerOptions
}
