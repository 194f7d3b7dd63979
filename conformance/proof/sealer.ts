/**
 * A whole sealing service on in-memory ports with pinned clock, entropy and keys: what golden
 * vectors, property tests and the proof benchmark seal with. It runs the real sealArtifact.
 */
import * as E from 'fp-ts/lib/Either.js'
import { FixedClock, MemoryStore, SeededEntropy } from '../../adapters/memory/index.js'
import { MemoryBlobStore } from '../../adapters/memory/memory-blob-store.js'
import { MemoryEventBus } from '../../adapters/memory/memory-event-bus.js'
import { EMPTY_DEPLOYMENT_CONFIG } from '../../core/config/deployment-config.js'
import { sealArtifact, type SealedArtifact } from '../../core/proof/seal-artifact.js'
import { serviceTrust } from '../../core/proof/service-trust.js'
import type { ProofOwner, SealKind } from '../../core/proof/format.js'
import type { TrustMaterial } from '../../core/proof/verify.js'
import { collections } from '../../core/usecases/collections.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import type { KeyStore } from '../../ports/key-store.js'
import type { Store } from '../../ports/store.js'
import { FixedKeyStore } from './fixed-key-store.js'

export const GOLDEN_BASE_URL = 'https://cairn.example'
export const GOLDEN_NOW_MS = Date.parse('2026-06-25T00:00:00.000Z')

export interface Sealer {
  readonly deps: CoreDeps
  readonly trust: TrustMaterial
  seal(bytes: Uint8Array, filename: string, mimeType: string, options?: { sealKind?: SealKind; owner?: ProofOwner }): Promise<SealedArtifact>
}

export async function createSealer(options: { readonly store?: Store; readonly keys?: KeyStore; readonly seed?: string } = {}): Promise<Sealer> {
  const store = options.store ?? new MemoryStore()
  await store.declare(collections)
  const deps: CoreDeps = {
    clock: new FixedClock(GOLDEN_NOW_MS),
    entropy: new SeededEntropy(options.seed ?? 'proof'),
    store,
    blobs: new MemoryBlobStore(),
    events: new MemoryEventBus(),
    keys: options.keys ?? new FixedKeyStore(),
    config: { baseUrl: GOLDEN_BASE_URL, deployment: EMPTY_DEPLOYMENT_CONFIG },
  }
  return {
    deps,
    trust: await serviceTrust(deps),
    async seal(bytes, filename, mimeType, sealOptions = {}) {
      const sealed = await sealArtifact(deps, { bytes, filename, mimeType }, {
        sealKind: sealOptions.sealKind ?? 'integrity-seal',
        ...(sealOptions.owner ? { owner: sealOptions.owner } : {}),
        actorUserId: sealOptions.owner?.userId ?? null,
      })
      if (E.isLeft(sealed)) throw new Error(sealed.left.message)
      return sealed.right
    },
  }
}
