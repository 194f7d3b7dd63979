/**
 * The `pg` driver is an optional peer dependency: it is imported when an adapter first needs a
 * connection, never when the adapters are imported or configured, so an embed on memory or SQLite
 * never loads it and a deployment that names PostgreSQL without it installed is told what to install.
 */
import type pg from 'pg'
import { loadOptionalPackage } from '../shared/optional-package.js'

export type PgDriver = typeof pg

let loaded: PgDriver | undefined

/** The driver, imported on the first call; a MissingPackageError naming `pg` when it is not installed. */
export async function loadPgDriver(): Promise<PgDriver> {
  loaded ??= (await loadOptionalPackage('pg', 'PostgreSQL storage', () => import('pg'))).default
  return loaded
}

/**
 * True for an error the server answered with (a SQLSTATE in `code`). Before any connection loaded
 * the driver no such error can exist, which is why the check needs no import of its own.
 */
export function isDatabaseError(error: unknown): error is pg.DatabaseError {
  return loaded !== undefined && error instanceof loaded.DatabaseError
}
