import { existsSync } from 'node:fs'
import { expect, it } from 'vitest'
import pg from 'pg'
import { describePostgres } from './cluster-per-file.js'
import { startThrowawayCluster } from './throwaway-cluster.js'

describePostgres('throwaway PostgreSQL cluster', () => {
  it('starts on 127.0.0.1, survives a crash and a restart, and leaves nothing behind', async () => {
    const cluster = await startThrowawayCluster()
    const query = async (sql: string) => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        return (await client.query(sql)).rows
      } finally {
        await client.end()
      }
    }
    const url = await cluster.createDatabase('harness')
    try {
      expect(url).toMatch(/^postgres:\/\/cairn@127\.0\.0\.1:\d+\/harness_/)
      expect(await query('SELECT inet_server_addr()::text AS addr')).toEqual([{ addr: '127.0.0.1/32' }])
      await query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)')
      await cluster.stop('immediate')
      await expect(query('SELECT 1')).rejects.toThrow()
      await cluster.start()
      expect(await query('SELECT n FROM kept')).toEqual([{ n: 1 }])
    } finally {
      const dataDir = (await query("SELECT current_setting('data_directory') AS dir"))[0]!.dir as string
      await cluster.remove()
      expect(existsSync(dataDir)).toBe(false)
    }
  })
})
