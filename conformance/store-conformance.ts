/**
 * The Store conformance suite: every adapter of the Store port must pass it. It is a function of an
 * adapter factory (unstorage's `testDriver`, Auth.js's adapter tests), so an adapter's own test file
 * is a few lines; see README.md beside this file.
 */
import { describe } from 'vitest'
import { eachTest } from './support/each-test.js'
import { describeAgreementWithMemory } from './suites/store-agreement.js'
import { describeAtomicCommits } from './suites/store-atomicity.js'
import { describeConcurrentCommits } from './suites/store-concurrency.js'
import { describeDeepValues } from './suites/store-deep-values.js'
import { describeDocuments } from './suites/store-documents.js'
import { describeFaults } from './suites/store-faults.js'
import { describeQueries } from './suites/store-queries.js'
import { describeSharedBackend } from './suites/store-shared-backend.js'
import { describeStreams } from './suites/store-streams.js'
import { describeUniqueKeys } from './suites/store-unique-keys.js'
import { openStoreFixture, type StoreConformanceOptions } from './targets.js'

/**
 * @example
 * describeStoreConformance({ name: 'store=memory', create: async () => new MemoryStore() })
 */
export function describeStoreConformance(options: StoreConformanceOptions): void {
  describe(`${options.name} Store`, () => {
    const fixture = eachTest(() => openStoreFixture(options.create), (opened) => opened.dispose())
    describeDocuments(fixture)
    describeDeepValues(fixture)
    describeUniqueKeys(fixture)
    describeAtomicCommits(fixture)
    describeConcurrentCommits(fixture, options)
    describeStreams(fixture)
    describeQueries(fixture)
    describeSharedBackend(fixture)
    describeFaults(fixture)
    describeAgreementWithMemory(options)
  })
}
