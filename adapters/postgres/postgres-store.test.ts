/**
 * PostgresStore against a real server (a throwaway cluster of this file). The matrix
 * (conformance/matrix.test.ts) runs the conformance suites in the default isolation (advisory locks);
 * this file runs them in the other one, SERIALIZABLE, and what only PostgreSQL can show.
 */
import { describeStoreConformance } from '../../conformance/store-conformance.js'
import { postgresStoreBackend } from '../../conformance/backends/postgres.js'
import { describePostgres } from './testing/cluster-per-file.js'

const serializable = postgresStoreBackend({ isolation: 'serializable' })

describePostgres('PostgresStore', () => {
  describeStoreConformance({ name: 'store=postgres isolation=serializable', create: serializable.store, capabilities: serializable.capabilities, propertyRuns: 10 })
})
