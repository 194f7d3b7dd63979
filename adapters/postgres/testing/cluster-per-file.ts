/**
 * One throwaway PostgreSQL cluster per test file (vitest runs each file in its own module graph):
 * started on first use, removed after the file. `describePostgres` skips a suite, saying why once on
 * stderr and in the test's name, when no server can run here. Each fixture takes a fresh schema of
 * one shared database, so suites never see each other's tables and nobody waits for CREATE DATABASE.
 */
import { afterAll, describe, it } from 'vitest'
import pg from 'pg'
import { postgresSkipReason, startThrowawayCluster, type ThrowawayCluster } from './throwaway-cluster.js'

let running: Promise<ThrowawayCluster> | undefined
let database: Promise<string> | undefined
let schemas = 0
let warned = false

afterAll(async () => {
  const cluster = running
  running = undefined
  database = undefined
  await (await cluster?.catch(() => undefined))?.remove()
})

/** The cluster of this test file, started on the first call. */
export function clusterOfThisFile(): Promise<ThrowawayCluster> {
  running ??= startThrowawayCluster()
  return running
}

/** The connection string of this file's shared database. */
export function databaseOfThisFile(): Promise<string> {
  database ??= clusterOfThisFile().then((cluster) => cluster.createDatabase())
  return database
}

/** A fresh schema name in this file's database, and a way to drop it. */
export async function freshSchema(): Promise<{ readonly connectionString: string; readonly schema: string; drop(): Promise<void> }> {
  const connectionString = await databaseOfThisFile()
  schemas += 1
  const schema = `t${process.pid}_${schemas}`
  return {
    connectionString,
    schema,
    drop: async () => {
      const admin = new pg.Client({ connectionString })
      await admin.connect()
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      } finally {
        await admin.end()
      }
    },
  }
}

/** `describe` when a PostgreSQL server can run here, else a skipped block that says why. */
export function describePostgres(name: string, body: () => void): void {
  if (postgresSkipReason === undefined) {
    describe(name, body)
    return
  }
  if (!warned) console.warn(`PostgreSQL suites skipped: ${postgresSkipReason}`)
  warned = true
  describe.skip(name, () => {
    it(`skipped: ${postgresSkipReason}`, () => undefined)
  })
}
