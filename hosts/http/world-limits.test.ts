/**
 * Per-address limits of visitor messages over a listening server: by default X-Forwarded-For is
 * ignored, so a client rotating visitor ids and spoofing the header is one address; behind a
 * trusted proxy (deployment `network.trustedProxies`) each forwarded client counts on its own, so
 * the rotating client is stopped and an honest visitor from another address still gets through.
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { DeploymentConfig } from '../../core/config/deployment-config.js'
import { signInOverHttp } from '../cli/serve-process-test-support.js'
import { createCairn, type Cairn } from '../library/create-cairn.js'
import { startHttpServer } from './start-http-server.js'

const BASE_URL = 'http://cairn.world-limits.test'
const opened: { cairn: Cairn; close: () => Promise<void> }[] = []
afterEach(async () => {
  for (const { cairn, close } of opened.splice(0)) {
    await close()
    await cairn.close()
  }
})

async function serve(deployment: DeploymentConfig): Promise<string> {
  const cairn = createCairn({ baseUrl: BASE_URL, deployment: { clients: [], businessAccounts: [], ...deployment }, logIntegration: false, webhooks: { enabled: false } })
  const server = await startHttpServer(cairn.nodeHandler, { host: '127.0.0.1', port: 0 })
  opened.push({ cairn, close: () => server.close() })
  await signInOverHttp(server.url, BASE_URL, 'ada')
  return server.url
}

const visit = (url: string, visitorId: string, forwardedFor?: string) =>
  fetch(`${url}/api/world/profile/ada`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) },
    body: JSON.stringify({ visitorId, text: 'Hello Twin' }),
  })

describe('visitor messages per client address, over HTTP', () => {
  it('ignore X-Forwarded-For by default: rotating visitor ids and spoofed addresses from one peer hit one limit', async () => {
    const url = await serve({ world: { addressPerMinute: 3, visitorPerMinute: 10, twinPerMinute: 60 } })
    for (let i = 0; i < 3; i++) expect((await visit(url, `rotating-${i}000`, `203.0.113.${i}`)).status).toBe(200)
    const refused = await visit(url, 'rotating-9000', '198.51.100.99')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toEqual({ ok: false, error: expect.stringContaining('network address') })
  })

  it('behind a trusted proxy count each forwarded client: the rotating one is stopped, an honest one still gets through', async () => {
    const url = await serve({ world: { addressPerMinute: 3, visitorPerMinute: 10, twinPerMinute: 60 }, network: { trustedProxies: ['127.0.0.1'] } })
    for (let i = 0; i < 3; i++) expect((await visit(url, `rotating-${i}000`, '203.0.113.66')).status).toBe(200)
    // Prepending a made-up address changes nothing: the proxy appended the real one last.
    expect((await visit(url, 'rotating-9000', '198.51.100.1, 203.0.113.66')).status).toBe(429)
    const honest = await visit(url, 'honest-visitor', '198.51.100.7')
    expect(honest.status).toBe(200)
    expect(await honest.json()).toMatchObject({ ok: true, thread: { threadId: expect.any(String), threadSecret: expect.any(String) } })
  })

  it('take trustedProxies only as addresses or CIDR ranges in the deployment configuration', () => {
    expect(E.isRight(DeploymentConfig.decode({ network: { trustedProxies: ['10.0.0.0/8', '127.0.0.1', 'fd00::/8'] } }))).toBe(true)
    for (const entry of ['proxy.internal', '10.0.0', '10.0.0.0/40']) expect(E.isLeft(DeploymentConfig.decode({ network: { trustedProxies: [entry] } })), entry).toBe(true)
  })
})
