/** `cairn serve`: the HTTP host on the configured adapters, stopping cleanly on SIGINT/SIGTERM. */
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
Logs are JSON lines on stdout.

       cairn verify <file> (--trust FILE... | --issuer-asserted) [--json]   (cairn verify --help)
       cairn value issue --user NAME --phi AMOUNT ...   (cairn value --help)`

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE)
    return command === undefined ? 2 : 0
  }
  if (command === 'verify') return verifyCommand(rest)
  if (command === 'value') return valueCommand(rest, env)
  if (command !== 'serve') {
    console.error(`Unknown command "${command}".\n${USAGE}`)
    return 2
  }
  let config: ServeConfig
  let adapters: ReturnType<typeof selectAdapters>
  let deployment: ReturnType<typeof loadDeploymentConfig>
  try {
    config = readServeConfig(rest, env)
    deployment = loadDeploymentConfig(config.configFile)
    adapters = selectAdapters(config.storage)
  } catch (error) {
    console.error(`cairn: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  const { store, blobs, events, keys } = adapters
  const limits = config.inFlightBytes === undefined ? {} : { limits: { ...DEFAULT_BODY_LIMITS, inFlightBytes: config.inFlightBytes } }
  const logger = createLogger()
  const metrics = config.metricsPort !== undefined ? createMetrics() : undefined
  const cairn = createCairn({ baseUrl: config.baseUrl, deployment, store, blobs, events, keys, ...limits, logger, ...(metrics ? { metrics } : {}) })
  try {
    await cairn.ready
  } catch (error) {
    logger.error({ err: error }, `Storage is not ready: ${(error as Error).message}`)
    await cairn.close()
    await adapters.close()
    return 1
  }
  const server = await startHttpServer(cairn.nodeHandler, { host: config.host, port: config.port, ...(config.serverLimits ? { limits: config.serverLimits } : {}) })
  cairn.attachWebSocket(server.server)
  logger.info({ url: server.url, baseUrl: config.baseUrl, storage: adapters.description }, `Cairn listening on ${server.url} (base URL ${config.baseUrl}, ${adapters.description})`)
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
