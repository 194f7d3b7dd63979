/**
 * A webhook receiver on 127.0.0.1 that verifies every delivery with the official standardwebhooks
 * library, as a consumer would, and records what it verified with which secret.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface Received { id: string; event: Record<string, unknown>; verifiedWith: string | null }

/** A receiver on `port` (any free one by default) that answers `status` and records what it verified with which secret. */
export async function startReceiver(secrets: () => string[], status = () => 204, port = 0): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      const verifiedWith = secrets().find((secret) => { try { new Webhook(secret).verify(body, headers); return true } catch { return false } }) ?? null
      received.push({ id: headers['webhook-id']!, event: JSON.parse(body) as Record<string, unknown>, verifiedWith })
      res.writeHead(status()).end('receiver body that Cairn must not keep')
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server }
}
