/**
 * `--store postgres://user:password@host:5432/db?schema=cairn&poolSize=20&statementTimeoutMs=5000`:
 * Cairn's own parameters (schema, poolSize, statementTimeoutMs, connectionTimeoutMs, isolation) are
 * taken out of the query string; everything else (sslmode, application_name, host=/socket/dir…)
 * stays for `pg`. `redactedPostgresUrl` is the only form of the string that may reach a log.
 */
import type { CommitIsolation } from './postgres-commit.js'
import type { PostgresConnectionOptions } from './postgres-connection.js'

/** True for the connection strings this adapter takes. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//.test(text)
}

export type ParsedPostgresUrl = PostgresConnectionOptions & { readonly connectionString: string; readonly isolation?: CommitIsolation }

/** @example parsePostgresUrl('postgres://cairn@db/cairn?poolSize=20') // { connectionString: 'postgres://cairn@db/cairn', poolSize: 20 } */
export function parsePostgresUrl(text: string): ParsedPostgresUrl {
  if (!isPostgresUrl(text)) throw new Error('A PostgreSQL store is a postgres:// or postgresql:// connection string')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`Not a PostgreSQL connection string: ${redactedPostgresUrl(text)}`)
  }
  const take = (name: string) => {
    const value = url.searchParams.get(name)
    url.searchParams.delete(name)
    return value ?? undefined
  }
  const count = (name: string, min: number) => {
    const value = take(name)
    if (value === undefined) return undefined
    const number = Number(value)
    if (!Number.isInteger(number) || number < min) throw new Error(`${name} must be a whole number of at least ${min}, not ${JSON.stringify(value)}`)
    return number
  }
  const schema = take('schema')
  const poolSize = count('poolSize', 1)
  const statementTimeoutMs = count('statementTimeoutMs', 0)
  const connectionTimeoutMs = count('connectionTimeoutMs', 0)
  const isolation = take('isolation')
  if (isolation !== undefined && isolation !== 'locks' && isolation !== 'serializable') {
    throw new Error(`isolation must be locks or serializable, not ${JSON.stringify(isolation)}`)
  }
  return {
    connectionString: url.toString(),
    ...(schema === undefined ? {} : { schema }),
    ...(poolSize === undefined ? {} : { poolSize }),
    ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
    ...(connectionTimeoutMs === undefined ? {} : { connectionTimeoutMs }),
    ...(isolation === undefined ? {} : { isolation }),
  }
}

/** The connection string without its password (and without a `password` parameter). */
export function redactedPostgresUrl(text: string): string {
  return text.replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*):[^@/?#]*@/, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***')
}
