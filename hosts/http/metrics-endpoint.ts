/** The Prometheus scrape endpoint: `GET /metrics` on its own listener, so it is never public by accident. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CairnMetrics } from './metrics.js'

export function metricsHandler(metrics: CairnMetrics): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (req.url?.split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ ok: false, error: 'Only GET /metrics is served here' }))
      return
    }
    const { contentType, body } = await metrics.scrape()
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(req.method === 'HEAD' ? undefined : body)
  }
}
