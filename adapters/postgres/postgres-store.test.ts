/**
 * PostgresStore against a real server (a throwaway cluster of this file). The matrix
 * (conformance/matrix.test.ts) runs the conformance suites in the default isolation (advisory locks);
 * this file runs them in the other one, SERIALIZABLE, and what only a real server can show: COMMIT
 * outcomes lost with the connection, a whole Cairn from a `postgres://` string, and a database
 * restarted under load.
 */
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { postgresStoreBackend } from '../../conformance/backends/postgres.js'
import { describeStoreConformance } from '../../conformance/store-conformance.js'
import * as E from 'fp-ts/lib/Either.js'
import { verifyChain } from '../../core/digest/chain.js'
import { createCairn } from '../../hosts/library/create-cairn.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { Expectation, Store, Write } from '../../ports/store.js'
import { createPostgresPool } from './postgres-connection.js'
import { PostgresStore } from './postgres-store.js'
import { clusterOfThisFile, describePostgres, freshSchema } from './testing/cluster-per-file.js'

const serializable = postgresStoreBackend({ isolation: 'serializable' })

const put = (key: string, value: number, expect: Expectation): Write => ({
  kind: 'put',
  collection: 'accounts',
  key,
  value: { n: value },
  expect,
})

/** A pool whose next COMMIT after `arm()` fails the way `misbehave` says. */
async function poolFailingCommit(connectionString: string, misbehave: (client: pg.PoolClient, send: () => Promise<pg.QueryResult>) => Promise<pg.QueryResult>) {
  const pool = await createPostgresPool({ connectionString })
  let failures = 0
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>
  const misbehaving = async () => {
    const client = await connect()
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>
    client.query = ((...args: unknown[]) => {
      if (args[0] === 'COMMIT' && failures > 0) {
        failures -= 1
        return misbehave(client, () => query(...args))
      }
      return query(...args)
    }) as typeof client.query
    return client
  }
  // pool.query checks out a connection through the callback form.
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    if (callback === undefined) return misbehaving()
    misbehaving().then((client) => callback(undefined, client, () => client.release()), (error: Error) => callback(error))
    return undefined
  }) as typeof pool.connect
  return Object.assign(pool, { arm: () => void (failures = 1) })
}

describePostgres('PostgresStore', () => {
  describeStoreConformance({ name: 'store=postgres isolation=serializable', create: serializable.store, capabilities: serializable.capabilities, propertyRuns: 10 })

  describe('a COMMIT whose connection breaks', () => {
    type Misbehave = (client: pg.PoolClient, send: () => Promise<pg.QueryResult>, pool: pg.Pool, connectionString: string) => Promise<pg.QueryResult>

    /** A store on a fresh schema whose first COMMIT after `declare` misbehaves; `body` runs with it armed, then all is dropped. */
    async function withBrokenCommit(misbehave: Misbehave, body: (store: PostgresStore) => Promise<void>, commitRetryWindowMs?: number): Promise<void> {
      const { connectionString, schema, drop } = await freshSchema()
      const pool: pg.Pool & { arm(): void } = await poolFailingCommit(connectionString, (client, send) => misbehave(client, send, pool, connectionString))
      const store = new PostgresStore({ pool, schema, ...(commitRetryWindowMs === undefined ? {} : { commitRetryWindowMs }) })
      try {
        await store.declare([{ name: 'accounts' }])
        pool.arm()
        await body(store)
      } finally {
        await store.close()
        await pool.end()
        await drop()
      }
    }

    it('answers the outcome when the commit was applied and only the reply was lost', async () => {
      await withBrokenCommit(async (_client, send) => {
        await send()
        throw new Error('Connection terminated unexpectedly')
      }, async (store) => {
        const outcome = await store.commit([put('A', 1, { kind: 'absent' })])
        expect(outcome).toMatchObject({ ok: true, documents: [{ key: 'A', version: 1 }] })
        expect(await store.get('accounts', 'A')).toMatchObject({ version: 1, value: { n: 1 } })
      })
    })

    it('runs the commit again when the server ended the transaction before it committed', async () => {
      await withBrokenCommit(async (client, send, _pool, connectionString) => {
        const admin = new pg.Client({ connectionString })
        await admin.connect()
        try {
          const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
          await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid])
        } finally {
          await admin.end()
        }
        return send()
      }, async (store) => {
        expect(await store.commit([put('A', 1, { kind: 'absent' })])).toMatchObject({ ok: true, documents: [{ version: 1 }] })
        expect(await store.get('accounts', 'A')).toMatchObject({ version: 1 })
      })
    })

    const unknownOutcome = async (store: PostgresStore) => {
      await expect(store.commit([put('A', 1, { kind: 'absent' })])).rejects.toThrow(/whether it was applied is still unknown/)
    }

    it('stays unknown when the server restarted since the transaction began: a crash may have lost it and handed its id to another', async () => {
      await withBrokenCommit(async (_client, send, pool) => {
        await send()
        // Every later status question answers from a server that started again since (a crash and recovery).
        const ask = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult<{ started?: string }>>
        pool.query = (async (...args: unknown[]) => {
          const answer = await ask(...args)
          if (String(args[0]).includes('pg_xact_status')) answer.rows[0]!.started = '2999-01-01 00:00:00+00'
          return answer
        }) as unknown as typeof pool.query
        throw new Error('Connection terminated unexpectedly')
      }, unknownOutcome, 300)
    })

    it('reports PortUnavailableError, never a conflict, when the server cannot say before the window ends', async () => {
      await withBrokenCommit(async (_client, _send, pool) => {
        // The server never hears COMMIT, and every later question fails too.
        pool.query = (() => Promise.reject(new Error('connect ECONNREFUSED'))) as unknown as typeof pool.query
        throw new Error('Connection terminated unexpectedly')
      }, unknownOutcome, 300)
    })
  })

  describe('createCairn({ storage })', () => {
    it('runs a whole Cairn on a postgres:// string: store, bus and keys in one database, one JWKS for two instances', async () => {
      const { connectionString, schema, drop } = await freshSchema()
      const storage = { store: `${connectionString}?schema=${schema}&poolSize=4&statementTimeoutMs=5000`, keyEncryptionKey: Buffer.alloc(32, 3).toString('base64url') }
      const instances = [0, 1].map(() => createCairn({ baseUrl: 'http://cairn.pg.test', storage, sweep: false, logIntegration: false, webhooks: { enabled: false } }))
      try {
        await Promise.all(instances.map((cairn) => cairn.ready))
        const bodies = (await Promise.all(instances.map((cairn) => cairn.call('getJwks')))).map((reply) =>
          E.isRight(reply) && reply.right.kind === 'json' ? reply.right.body : reply,
        )
        expect(bodies[0]).toMatchObject({ keys: expect.arrayContaining([expect.objectContaining({ kid: expect.any(String) })]) })
        expect(bodies[1]).toEqual(bodies[0])
        const admin = new pg.Client({ connectionString })
        await admin.connect()
        try {
          const { rows } = await admin.query<{ ring: string }>(`SELECT value::text AS ring FROM "${schema}".documents WHERE collection = 'cairn_signing_keys'`)
          expect(rows).toHaveLength(1)
          // Private halves are JWE under CAIRN_KEY_ENCRYPTION_KEY: no JWK member `d` in the clear.
          expect(rows[0]!.ring).toContain('"jwe"')
          expect(rows[0]!.ring).not.toMatch(/"d":/)
        } finally {
          await admin.end()
        }
      } finally {
        for (const cairn of instances) await cairn.close()
        await drop()
      }
    })
  })

  describe('SERIALIZABLE commits appending to one stream', () => {
    it('take turns instead of aborting each other: every commit runs once, and the pool keeps no lock', async () => {
      const { connectionString, schema, drop } = await freshSchema()
      // Two hosts, each counting the transactions its commits start.
      const pools = await Promise.all([0, 1].map(() => createPostgresPool({ connectionString })))
      let started = 0
      for (const pool of pools) {
        pool.on('connect', (client) => {
          const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>
          client.query = ((...args: unknown[]) => {
            if (typeof args[0] === 'string' && args[0].startsWith('BEGIN ISOLATION LEVEL SERIALIZABLE')) started += 1
            return query(...args)
          }) as typeof client.query
        })
      }
      const hosts = pools.map((pool) => new PostgresStore({ pool, schema, isolation: 'serializable' }))
      const COMMITS = 24
      try {
        await hosts[0]!.declare([{ name: 'accounts' }])
        started = 0
        // Each commit claims its own document and takes the log's next position, as seals and movement batches do.
        const outcomes = await Promise.all(Array.from({ length: COMMITS }, (_, i) =>
          hosts[i % 2]!.commit([put(`k${i}`, i, { kind: 'absent' }), { kind: 'appendNext', stream: 'log', value: { i } }])))
        expect(outcomes.every((outcome) => outcome.ok)).toBe(true)
        expect(started).toBe(COMMITS)
        expect(verifyChain(null, (await hosts[1]!.readStream('log', { limit: 100 })).items)).toBe(true)
        // Session locks are let go before a connection goes back to its pool.
        for (const pool of pools) {
          const { rows } = await pool.query<{ held: string }>(`SELECT count(*)::text AS held FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`)
          expect(rows[0]!.held).toBe('0')
        }
        const { rows } = await pools[0]!.query<{ held: string }>(`SELECT count(*)::text AS held FROM pg_locks WHERE locktype = 'advisory'`)
        expect(rows[0]!.held).toBe('0')
      } finally {
        for (const host of hosts) await host.close()
        for (const pool of pools) await pool.end()
        await drop()
      }
    })
  })

  describe('a database restarted under load', () => {
    it('loses no acknowledged transfer, conserves the total, keeps the chain whole, and serves again without a new store', async () => {
      const cluster = await clusterOfThisFile()
      const { connectionString, schema, drop } = await freshSchema()
      const hosts = [0, 1].map(() => new PostgresStore({ connectionString, schema, connectionTimeoutMs: 1000, commitRetryWindowMs: 2000 }))
      const TOTAL = 1000
      try {
        await hosts[0]!.commit([put('A', TOTAL, { kind: 'absent' }), put('B', 0, { kind: 'absent' })])
        const acknowledged: string[] = []
        let stop = false
        const transfer = async (store: Store, id: string) => {
          for (;;) {
            try {
              const [a, b] = [await store.get<{ n: number }>('accounts', 'A'), await store.get<{ n: number }>('accounts', 'B')]
              const head = (await store.streamHead('transfers'))?.head ?? null
              const outcome = await store.commit([
                put('A', a!.value.n - 1, { kind: 'version', version: a!.version }),
                put('B', b!.value.n + 1, { kind: 'version', version: b!.version }),
                { kind: 'append', stream: 'transfers', value: { id }, expectHead: head },
              ])
              if (outcome.ok) return acknowledged.push(id)
            } catch (error) {
              expect(error).toBeInstanceOf(PortUnavailableError)
              await new Promise((resolve) => setTimeout(resolve, 50))
            }
          }
        }
        const workers = Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; !stop; i += 1) await transfer(hosts[w % 2]!, `w${w}-${i}`)
        })
        await new Promise((resolve) => setTimeout(resolve, 400))
        await cluster.stop('immediate')
        await new Promise((resolve) => setTimeout(resolve, 300))
        await cluster.start()
        const afterRestart = acknowledged.length
        await new Promise((resolve) => setTimeout(resolve, 600))
        stop = true
        await Promise.all(workers)
        expect(acknowledged.length).toBeGreaterThan(afterRestart)
        const [a, b] = [await hosts[1]!.get<{ n: number }>('accounts', 'A'), await hosts[1]!.get<{ n: number }>('accounts', 'B')]
        expect(a!.value.n + b!.value.n).toBe(TOTAL)
        const entries = (await hosts[0]!.readStream<{ id: string }>('transfers', { limit: 1000 })).items
        expect(verifyChain(null, entries)).toBe(true)
        expect(entries).toHaveLength(b!.value.n)
        const applied = new Set(entries.map((entry) => entry.value.id))
        expect(acknowledged.filter((id) => !applied.has(id))).toEqual([])
      } finally {
        for (const host of hosts) await host.close()
        await drop()
      }
    })
  })
})
