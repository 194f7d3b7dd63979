/**
 * The conformance runner: the port suites over every combination of the matrix (conformance/matrix.ts),
 * each test named `store=<name> blobs=<name> …`. Unavailable backends are skipped, said once per
 * family on stderr, and still listed as skipped tests.
 */
import { describe, it } from 'vitest'
import { describeBlobStoreConformance } from './blob-store-conformance.js'
import { describeCombinationConformance } from './combination-conformance.js'
import { describeEventBusConformance } from './event-bus-conformance.js'
import { describeKeyStoreConformance } from './key-store-conformance.js'
import { combinations } from './matrix.js'
import { describeIdentityScenario } from './scenarios/identity-scenario.js'
import { describeValueScenario } from './scenarios/value-scenario.js'
import { describeTransparencyLogScenario } from './scenarios/transparency-log-scenario.js'
import { describeProofScenario } from './scenarios/proof-scenario.js'
import { describeLawfulScenario } from './scenarios/lawful-scenario.js'
import { describeRuntimeScenario } from './scenarios/runtime-scenario.js'
import { describeStoreConformance } from './store-conformance.js'

const cells = combinations()

const skipMessages = new Map(cells.flatMap((cell) => (cell.skip === undefined ? [] : [[cell.skip.family, cell.skip.reason] as const])))
for (const [family, reason] of skipMessages) console.warn(`${family} combinations skipped: ${reason}`)

for (const cell of cells) {
  const store = cell.store.backend
  const blobs = cell.blobs.backend
  if (cell.skip !== undefined || store === undefined || blobs === undefined) {
    describe.skip(cell.name, () => {
      it(`conformance (${cell.skip?.reason ?? 'unavailable'})`, () => undefined)
    })
    continue
  }
  if (cell.runsStoreSuites) {
    describeStoreConformance({ name: cell.name, create: store.store, capabilities: store.capabilities, propertyRuns: store.propertyRuns })
    if (store.eventBus !== undefined) describeEventBusConformance({ name: cell.name, create: store.eventBus })
    if (store.keyStore !== undefined) describeKeyStoreConformance({ name: cell.name, create: store.keyStore })
  }
  if (cell.runsBlobSuite) describeBlobStoreConformance({ name: cell.name, create: blobs.blobs })
  describeCombinationConformance({ name: cell.name, store: store.store, blobs: blobs.blobs })
  describeIdentityScenario({ name: cell.name, store: store.store, blobs: blobs.blobs })
  describeValueScenario({ name: cell.name, store: store.store, runs: cell.store.name === 'memory' ? 12 : 6 })
  describeTransparencyLogScenario({ name: cell.name, store: store.store, blobs: blobs.blobs })
  describeProofScenario({ name: cell.name, store: store.store, blobs: blobs.blobs })
  describeLawfulScenario({ name: cell.name, store: store.store })
  describeRuntimeScenario({ name: cell.name, store: store.store, blobs: blobs.blobs })
}
