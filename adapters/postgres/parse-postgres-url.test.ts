import { describe, expect, it } from 'vitest'
import { parsePostgresUrl, redactedPostgresUrl } from './parse-postgres-url.js'

describe('PostgreSQL connection strings', () => {
  it("takes Cairn's parameters out and leaves the rest for pg", () => {
    expect(parsePostgresUrl('postgresql://cairn:pw@db.internal:5433/cairn?sslmode=require&poolSize=20&statementTimeoutMs=5000&schema=tenant_a&isolation=serializable')).toEqual({
      connectionString: 'postgresql://cairn:pw@db.internal:5433/cairn?sslmode=require',
      poolSize: 20,
      statementTimeoutMs: 5000,
      schema: 'tenant_a',
      isolation: 'serializable',
    })
    expect(parsePostgresUrl('postgres://cairn@localhost/cairn')).toEqual({ connectionString: 'postgres://cairn@localhost/cairn' })
  })

  it('refuses bad numbers and isolations in a plain sentence', () => {
    expect(() => parsePostgresUrl('postgres://h/db?poolSize=ten')).toThrow(/poolSize must be a whole number/)
    expect(() => parsePostgresUrl('postgres://h/db?statementTimeoutMs=-1')).toThrow(/statementTimeoutMs/)
    expect(() => parsePostgresUrl('postgres://h/db?isolation=snapshot')).toThrow(/isolation must be locks or serializable/)
    expect(() => parsePostgresUrl('mysql://h/db')).toThrow(/postgres:\/\//)
  })

  it('redacts passwords wherever the string carries them', () => {
    expect(redactedPostgresUrl('postgres://cairn:s3cret@db/cairn')).toBe('postgres://cairn:***@db/cairn')
    expect(redactedPostgresUrl('postgresql://db/cairn?user=cairn&password=s3cret&sslmode=require')).toBe('postgresql://db/cairn?user=cairn&password=***&sslmode=require')
    expect(redactedPostgresUrl('postgres://cairn@db/cairn')).toBe('postgres://cairn@db/cairn')
  })
})
