/**
 * The `mongodb` driver is an optional peer dependency: it is imported when an adapter first
 * connects, never when the adapters are imported or configured, so an embed on memory or SQLite
 * never loads it and a deployment that names MongoDB without it installed is told what to install.
 */
import type * as Mongo from 'mongodb'
import { loadOptionalPackage } from '../shared/optional-package.js'

export type MongoDriver = typeof Mongo

let loaded: MongoDriver | undefined

/** The driver, imported on the first call; a MissingPackageError naming `mongodb` when it is not installed. */
export async function loadMongoDriver(): Promise<MongoDriver> {
  loaded ??= await loadOptionalPackage('mongodb', 'MongoDB storage', () => import('mongodb'))
  return loaded
}

/**
 * True for the driver's errors. Before any connection loaded the driver no driver error can exist,
 * which is why the check needs no import of its own.
 */
export function isMongoError(error: unknown): error is Mongo.MongoError {
  return loaded !== undefined && error instanceof loaded.MongoError
}

/** True for an error the server answered with (it carries a numeric `code`). */
export function isMongoServerError(error: unknown): error is Mongo.MongoServerError {
  return loaded !== undefined && error instanceof loaded.MongoServerError
}

/** True when GridFS found a file's chunks missing, extra or wrongly sized. */
export function isGridFsChunkError(error: unknown): error is Mongo.MongoGridFSChunkError {
  return loaded !== undefined && error instanceof loaded.MongoGridFSChunkError
}
