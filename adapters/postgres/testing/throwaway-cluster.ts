/**
 * A throwaway PostgreSQL cluster for tests, the conformance matrix and benches: `initdb` in a fresh
 * temporary directory, `pg_ctl` on a free port of 127.0.0.1 (and a Unix socket inside the directory,
 * never /var/run), trust authentication for loopback only, removed by `remove()`. PostgreSQL refuses
 * to run as root, so when the process is root the binaries run as the `postgres` user (`runuser`),
 * which owns the directory. Without binaries (PATH or /usr/lib/postgresql/<version>/bin)
 * `postgresSkipReason` says why, and the suites skip saying so.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

/** The role the cluster is made with (a superuser; loopback trust authentication). */
export const CLUSTER_USER = 'cairn'

/** Where the server binaries are, or why there are none. */
const binaries = findBinaries()
const runAs = binaries.dir === undefined ? undefined : userToRunAs()

/** Why the PostgreSQL suites cannot run here (undefined: they run). */
export const postgresSkipReason: string | undefined =
  binaries.dir === undefined
    ? 'no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin; install them with `apt-get install postgresql`'
    : runAs === null
      ? 'running as root and no `postgres` user to run the server as (PostgreSQL refuses root)'
      : undefined

export interface ThrowawayClusterOptions {
  /**
   * fsync on, as a production server has it (benches). Off by default: tests exercise ordering,
   * isolation and crashes of the server process, not of the machine, and run faster without it.
   * @default false
   */
  readonly durable?: boolean
  /** @default 200 */
  readonly maxConnections?: number
}

export interface ThrowawayCluster {
  readonly host: string
  readonly port: number
  /** A connection string of `database` on this cluster. */
  url(database?: string): string
  /** A fresh empty database; its connection string. */
  createDatabase(prefix?: string): Promise<string>
  /** Stop the server (the data stays): `immediate` is a crash, `fast` a clean shutdown. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Start it again on the same port. */
  start(): Promise<void>
  /** Stop the server and delete the cluster. */
  remove(): Promise<void>
}

/**
 * @example
 * const cluster = await startThrowawayCluster()
 * const store = new PostgresStore({ connectionString: await cluster.createDatabase() })
 * // …
 * await cluster.remove()
 */
export async function startThrowawayCluster(options: ThrowawayClusterOptions = {}): Promise<ThrowawayCluster> {
  if (postgresSkipReason !== undefined || binaries.dir === undefined) throw new Error(`No PostgreSQL cluster: ${postgresSkipReason}`)
  const bin = binaries.dir
  const directory = mkdtempSync(join(tmpdir(), 'cairn-postgres-'))
  const dataDir = join(directory, 'data')
  if (runAs) chownSync(directory, runAs.uid, runAs.gid)
  const asServerUser = (program: string, args: readonly string[]) => {
    const file = join(bin, program)
    return runAs ? (['runuser', ['-u', runAs.name, '--', file, ...args]] as const) : ([file, args] as const)
  }
  const exec = async (program: string, args: readonly string[]) => {
    const [file, argv] = asServerUser(program, args)
    await run(file, [...argv], { timeout: 60_000 })
  }
  let port = 0
  const settings = () =>
    [
      `-c listen_addresses=127.0.0.1`,
      `-c port=${port}`,
      `-c unix_socket_directories=${directory}`,
      `-c max_connections=${options.maxConnections ?? 200}`,
      // Without fsync a commit still reaches the OS before it is acknowledged: a killed server (the
      // tests' crash) loses nothing, only a machine crash would. synchronous_commit stays on for that.
      ...(options.durable ? [] : ['-c fsync=off', '-c full_page_writes=off']),
    ].join(' ')
  const startServer = () => exec('pg_ctl', ['start', '-w', '-t', '60', '-D', dataDir, '-l', join(directory, 'server.log'), '-o', settings()])
  const stopServer = async (mode: 'fast' | 'immediate') => {
    if (!existsSync(join(dataDir, 'postmaster.pid'))) return
    await exec('pg_ctl', ['stop', '-w', '-t', '60', '-D', dataDir, '-m', mode])
  }
  const initdb = (locale: readonly string[]) =>
    exec('initdb', ['-D', dataDir, '-A', 'trust', '-U', CLUSTER_USER, '-E', 'UTF8', ...locale, ...(options.durable ? [] : ['--no-sync'])])
  // A natural-language default collation (ICU en-US), as production databases have: SQL that forgot
  // COLLATE "C" orders differently here. Servers without ICU get the C locale.
  await initdb(['--locale=C', '--locale-provider=icu', '--icu-locale=en-US']).catch(async () => {
    rmSync(dataDir, { recursive: true, force: true })
    await initdb(['--locale=C'])
  })
  // Another process may take the free port before the server binds it: try another.
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort()
    try {
      await startServer()
      break
    } catch (error) {
      if (attempt >= 3) throw error
    }
  }
  // A test runner killed mid-run still stops its server: nothing outlives the process.
  const onExit = () => {
    if (!existsSync(join(dataDir, 'postmaster.pid'))) return
    const [file, argv] = asServerUser('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate'])
    spawnSync(file, [...argv], { stdio: 'ignore' })
    rmSync(directory, { recursive: true, force: true })
  }
  process.once('exit', onExit)
  let databases = 0
  const url = (database = 'postgres') => `postgres://${CLUSTER_USER}@127.0.0.1:${port}/${database}`
  return {
    host: '127.0.0.1',
    port,
    url,
    createDatabase: async (prefix = 'cairn_test') => {
      databases += 1
      const name = `${prefix}_${process.pid}_${databases}`
      const admin = new pg.Client({ connectionString: url() })
      await admin.connect()
      try {
        await admin.query(`CREATE DATABASE "${name}"`)
      } finally {
        await admin.end()
      }
      return url(name)
    },
    stop: (mode = 'fast') => stopServer(mode),
    start: startServer,
    remove: async () => {
      process.removeListener('exit', onExit)
      await stopServer('immediate').catch(() => undefined)
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

function findBinaries(): { dir: string | undefined } {
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return { dir: realBinDir(dir) }
  }
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return { dir: undefined }
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return { dir: versions[0] === undefined ? undefined : join(root, versions[0], 'bin') }
}

/** Debian's /usr/bin wrappers (pg_wrapper) pick a cluster, not a binary: prefer the real directory. */
function realBinDir(dir: string): string {
  try {
    const resolved = execFileSync('readlink', ['-f', join(dir, 'initdb')], { encoding: 'utf8' }).trim()
    return resolved.endsWith('/initdb') && !resolved.includes('pg_wrapper') ? resolved.slice(0, -'/initdb'.length) : dir
  } catch {
    return dir
  }
}

/** undefined: run the binaries as ourselves; null: root with nobody to run them as. */
function userToRunAs(): { name: string; uid: number; gid: number } | null | undefined {
  if (process.getuid?.() !== 0) return undefined
  const found = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
  if (found.status !== 0 || gid.status !== 0) return null
  return { name: 'postgres', uid: Number(found.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('No free port'))))
    })
  })
}
