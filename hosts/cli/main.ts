/** `cairn serve`: the HTTP host on in-memory adapters, stopping cleanly on SIGINT/SIGTERM. */
import { startHttpServer } from '../http/start-http-server.js'
import { createCairn } from '../library/create-cairn.js'
import { readServeConfig } from './serve-config.js'

const USAGE = `Usage: cairn serve [--host 127.0.0.1] [--port 8787] [--base-url URL]

Environment: HOST, PORT, CAIRN_BASE_URL (flags win).`

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE)
    return command === undefined ? 2 : 0
  }
  if (command !== 'serve') {
    console.error(`Unknown command "${command}".\n${USAGE}`)
    return 2
  }
  let config
  try {
    config = readServeConfig(rest, env)
  } catch (error) {
    console.error(`cairn: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  const cairn = createCairn({ baseUrl: config.baseUrl })
  const server = await startHttpServer(cairn.nodeHandler, { host: config.host, port: config.port })
  console.log(`Cairn listening on ${server.url} (base URL ${config.baseUrl}, in-memory storage)`)
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await server.close()
  await cairn.close()
  console.log('Cairn stopped')
  return 0
}
