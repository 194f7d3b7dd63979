/**
 * A debug line per request (method, path without the query, status, milliseconds, request id),
 * for `CAIRN_LOG_LEVEL=debug`. Written when the answer is finished or the client went away; the
 * query is left out because it may carry codes and tokens.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>

export function withRequestLog(handler: NodeHandler, logger: Pick<Logger, 'debug'>): NodeHandler {
  return (req, res) => {
    const started = performance.now()
    const path = (req.url ?? '/').split('?')[0]!
    res.once('close', () => {
      const ms = Math.round((performance.now() - started) * 10) / 10
      const requestId = res.getHeader('x-request-id')
      logger.debug({ method: req.method, path, status: res.statusCode, ms, finished: res.writableFinished, ...(requestId ? { requestId } : {}) }, `${req.method} ${path} ${res.statusCode} ${ms} ms`)
    })
    return handler(req, res)
  }
}
