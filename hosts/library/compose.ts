/**
 * Composition root: binds each port's token to the chosen adapter in an inversify container, so
 * the hosts and the core ask for ports by token and never name an adapter.
 */
import 'reflect-metadata'
import { Container } from 'inversify'
import { MemoryBlobStore, ProceduralArtGenerator, MemoryEventBus, MemoryKeyStore, MemoryStore } from '../../adapters/memory/index.js'
import { CryptoEntropy, SystemClock } from '../../adapters/system/index.js'
import { createCairnAuthenticator } from '../../core/auth/cairn-authenticator.js'
import { verifyAccessToken } from '../../core/oidc/verify-access-token.js'
import type { Authenticator } from '../../core/auth/authenticator.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../../core/config/deployment-config.js'
import type { CoreConfig, CoreDeps } from '../../core/usecases/use-case.js'
import { TOKENS } from '../../ports/tokens.js'
import type { CairnOptions } from './cairn-options.js'
import type { SelectedAdapters } from './select-adapters.js'
import { selectPaymentProcessor } from './select-payment-processor.js'
import { selectTextGenerator } from './select-text-generator.js'

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787'

/** Token of the authentication boundary (not a port: it is core logic over the ports). */
export const AUTHENTICATOR = Symbol.for('cairn.Authenticator')

export function composeContainer(options: CairnOptions, selected?: SelectedAdapters): Container {
  const container = new Container()
  const config: CoreConfig = {
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    deployment: options.deployment ?? EMPTY_DEPLOYMENT_CONFIG,
  }
  container.bind(TOKENS.Config).toConstantValue(config)
  container.bind(TOKENS.Clock).toConstantValue(options.clock ?? new SystemClock())
  container.bind(TOKENS.Entropy).toConstantValue(options.entropy ?? new CryptoEntropy())
  container.bind(TOKENS.Store).toConstantValue(options.store ?? selected?.store ?? new MemoryStore())
  container.bind(TOKENS.BlobStore).toConstantValue(options.blobs ?? selected?.blobs ?? new MemoryBlobStore())
  container.bind(TOKENS.EventBus).toConstantValue(options.events ?? selected?.events ?? new MemoryEventBus())
  container.bind(TOKENS.KeyStore).toConstantValue(options.keys ?? selected?.keys ?? new MemoryKeyStore())
  container.bind(TOKENS.PaymentProcessor).toConstantValue(options.payments ?? selectPaymentProcessor(config, container.get(TOKENS.Clock)))
  container.bind(TOKENS.TextGenerator).toConstantValue(options.text ?? selectTextGenerator(config.deployment))
  container.bind(TOKENS.ImageGenerator).toConstantValue(options.images ?? new ProceduralArtGenerator())
  container.bind(AUTHENTICATOR).toDynamicValue(() =>
    options.authenticator ?? createCairnAuthenticator({ deps: resolveDeps(container), verifyBearer: verifyAccessToken }),
  ).inSingletonScope()
  return container
}

/** The ports the core uses, resolved from the container. */
export function resolveDeps(container: Container): CoreDeps {
  return {
    config: container.get(TOKENS.Config),
    clock: container.get(TOKENS.Clock),
    entropy: container.get(TOKENS.Entropy),
    store: container.get(TOKENS.Store),
    blobs: container.get(TOKENS.BlobStore),
    events: container.get(TOKENS.EventBus),
    keys: container.get(TOKENS.KeyStore),
    payments: container.get(TOKENS.PaymentProcessor),
    text: container.get(TOKENS.TextGenerator),
    images: container.get(TOKENS.ImageGenerator),
  }
}

export function resolveAuthenticator(container: Container): Authenticator {
  return container.get(AUTHENTICATOR)
}
