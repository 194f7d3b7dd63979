/** The `cairn` command: `cairn serve` (the HTTP host on the configured adapters, stopping cleanly on SIGINT/SIGTERM), `cairn verify`, help and version. */
import { startHttpServer, type RunningServer } from '../http/start-http-server.js'
import { createLogger } from '../http/logger.js'
import { createMetrics } from '../http/metrics.js'
import { metricsHandler } from '../http/metrics-endpoint.js'
import { DEFAULT_BODY_LIMITS } from '../http/limits.js'
import { createCairn } from '../library/create-cairn.js'
import { selectAdapters } from '../library/select-adapters.js'
import { loadDeploymentConfig } from './load-deployment-config.js'
import { readServeConfig, type ServeConfig } from './serve-config.js'
import { verifyCommand } from './verify-command.js'
import { valueCommand } from './value-issue-command.js'
import { commandList, failUsage, packageVersion, startFailure } from './commands.js'
import { withRequestLog } from '../http/request-log.js'
import type { IncomingMessage, ServerResponse } from 'node:http'

/** Answers while storage gets ready (a few milliseconds after listening). */
function starting(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"ok":false,"error":"Cairn is starting; try again in a moment"}')
}

const USAGE = `Usage: cairn serve [--host 127.0.0.1] [--port 8787] [--base-url URL]
                   [--data-dir DIR] [--store memory|sqlite|sqlite:FILE|mongodb://…|postgres://…]
                   [--blobs memory|fs|fs:DIR|gridfs|s3://bucket/prefix?endpoint=…]
                   [--key-file FILE] [--config FILE] [--metrics-port PORT]
                   [--headers-timeout-ms 10000] [--request-timeout-ms 60000]
                   [--keep-alive-timeout-ms 5000] [--max-connections 1024]
                   [--max-in-flight-bytes 67108864]

Environment: HOST, PORT, CAIRN_BASE_URL, CAIRN_DATA_DIR, CAIRN_STORE, CAIRN_BLOBS,
CAIRN_KEY_FILE, CAIRN_KEY_ENCRYPTION_KEY, CAIRN_KEY_ROTATION_DAYS, CAIRN_CONFIG, CAIRN_HEADERS_TIMEOUT_MS,
CAIRN_REQUEST_TIMEOUT_MS, CAIRN_KEEP_ALIVE_TIMEOUT_MS, CAIRN_MAX_CONNECTIONS,
CAIRN_MAX_IN_FLIGHT_BYTES, CAIRN_METRICS_PORT, CAIRN_LOG_LEVEL (flags win).
Without a data dir everything lives in memory. --config takes the path of a JSON file.
Logs are JSON lines on stdout; CAIRN_LOG_LEVEL=debug adds a line per request.`

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(commandList())
    return command === undefined ? 2 : 0
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(`cairn ${packageVersion()}`)
    return 0
  }
  if (command === 'verify') return verifyCommand(rest)
  if (command === 'value') return valueCommand(rest, env)
  if (command !== 'serve') return failUsage(`unknown command "${command.slice(0, 64)}"`, 'cairn help')
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  let config: ServeConfig
  let adapters: ReturnType<typeof selectAdapters>
  let deployment: ReturnType<typeof loadDeploymentConfig>
  try {
    config = readServeConfig(rest, env)
    deployment = loadDeploymentConfig(config.configFile)
    adapters = selectAdapters(config.storage)
  } catch (error) {
    return failUsage((error as Error).message, 'cairn serve --help')
  }
  const { store, blobs, events, keys } = adapters
  const limits = config.inFlightBytes === undefined ? {} : { limits: { ...DEFAULT_BODY_LIMITS, inFlightBytes: config.inFlightBytes } }
  const logger = createLogger()
  const metrics = config.metricsPort !== undefined ? createMetrics() : undefined
  // Listen first: with --port 0 the real port is known only then, and it is what Cairn advertises
  // (issuer, OpenAPI server, log origin — which proofs seal) unless a base URL was given.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>) | undefined
  let server: RunningServer
  try {
    server = await startHttpServer((req, res) => (handler ? handler(req, res) : starting(res)), { host: config.host, port: config.port, ...(config.serverLimits ? { limits: config.serverLimits } : {}) })
  } catch (error) {
    console.error(`cairn: ${startFailure(error, config.host, config.port)}`)
    await adapters.close()
    return 1
  }
  const baseUrl = config.baseUrlGiven ? config.baseUrl : server.url
  const cairn = createCairn({ baseUrl, deployment, store, blobs, events, keys, ...limits, logger, ...(metrics ? { metrics } : {}) })
  try {
    await cairn.ready
  } catch (error) {
    console.error(`cairn: storage is not ready: ${(error as Error).message}`)
    await server.close()
    await cairn.close()
    await adapters.close()
    return 1
  }
  handler = logger.isLevelEnabled('debug') ? withRequestLog(cairn.nodeHandler, logger) : cairn.nodeHandler
  cairn.attachWebSocket(server.server)
  const clients = deployment.clients?.length ?? 0
  const accounts = deployment.businessAccounts?.length ?? 0
  const dataDir = config.storage.dataDir
  logger.info(
    { url: server.url, baseUrl, storage: adapters.description, ...(dataDir ? { dataDir } : {}), clients, businessAccounts: accounts },
    `Cairn listening on ${server.url} (base URL ${baseUrl}, ${adapters.description}${dataDir ? `, data dir ${dataDir}` : ''}; ${clients} OAuth client${clients === 1 ? '' : 's'}, ${accounts} Business account${accounts === 1 ? '' : 's'} configured)`,
  )
  if (adapters.description.startsWith('store=memory')) logger.warn({ storage: adapters.description }, 'Storage is in memory: everything is lost when Cairn stops; pass --data-dir DIR to keep it')
  let metricsServer: RunningServer | undefined
  if (metrics && config.metricsPort !== undefined) {
    metricsServer = await startHttpServer(metricsHandler(metrics), { host: config.host, port: config.metricsPort })
    logger.info({ url: `${metricsServer.url}/metrics` }, `Metrics on ${metricsServer.url}/metrics`)
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await Promise.all([server.close(), metricsServer?.close()])
  await cairn.close()
  await adapters.close()
  logger.info({}, 'Cairn stopped')
  return 0
}
