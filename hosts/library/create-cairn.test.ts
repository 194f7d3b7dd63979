import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { MemoryStore } from '../../adapters/memory/index.js'
import { TOKENS } from '../../ports/tokens.js'
import { pinnedOptions } from '../http/test-support.js'
import { createCairn, type Cairn } from './create-cairn.js'

describe('Cairn mounted inside a plain node:http server under a path prefix', () => {
  let cairn: Cairn
  let base: string
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/cairn/')) return void cairn.nodeHandler(req, res)
    res.writeHead(200, { 'content-type': 'text/plain' }).end('the host application')
  })

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    cairn = createCairn(pinnedOptions({ baseUrl: `${base}/cairn` }))
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await cairn.close()
  })

  it('serves its routes under the prefix and leaves the rest to the host application', async () => {
    const document = (await (await fetch(`${base}/cairn/api/openapi`)).json()) as { servers: { url: string }[] }
    expect(document.servers).toEqual([{ url: `${base}/cairn` }])
    expect(await (await fetch(`${base}/elsewhere`)).text()).toBe('the host application')
    const unknown = await fetch(`${base}/cairn/api/nowhere`)
    expect(unknown.status).toBe(404)
  })

  it('serves the same document at /api/openapi and /openapi.json', async () => {
    const a = await (await fetch(`${base}/cairn/api/openapi`)).text()
    const b = await (await fetch(`${base}/cairn/openapi.json`)).text()
    expect(a).toBe(b)
    expect(JSON.parse(a)).toMatchObject({ openapi: '3.1.0', info: { version: '2026-06-25.v2' } })
  })
})

describe('typed in-process calls', () => {
  it('go through the same authentication and decoding as HTTP', async () => {
    const cairn = createCairn(pinnedOptions())
    const anonymous = await cairn.call('getConnectWallet')
    expect(E.isLeft(anonymous) && anonymous.left).toMatchObject({ _tag: 'Unauthenticated' })
    const bad = await cairn.call('createEmbedCheckout', { body: { amountUsd: 'twelve', currency: 'usd' } as never })
    expect(E.isLeft(bad) && bad.left._tag).toBe('InvalidInput')
    await cairn.close()
  })

  it('binds every port by its token in the container, using the adapters given', async () => {
    const store = new MemoryStore()
    const cairn = createCairn(pinnedOptions({ store }))
    expect(cairn.container.get(TOKENS.Store)).toBe(store)
    for (const token of Object.values(TOKENS)) expect(cairn.container.isBound(token)).toBe(true)
    await cairn.close()
  })

  it('answers standard Requests through fetch', async () => {
    const cairn = createCairn(pinnedOptions({ baseUrl: 'https://cairn.example' }))
    const response = await cairn.fetch(new Request('https://cairn.example/releases/compare?from=v108.0.0'))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { comparison: { from: string; to: string } }
    expect(body.comparison).toMatchObject({ from: 'v108.0.0', to: 'v129.0.0' })
    await cairn.close()
  })
})
