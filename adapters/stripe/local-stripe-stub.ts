/**
 * A local stub of the Stripe API for tests: it speaks Stripe's wire format for the one call Cairn
 * makes (`POST /v1/checkout/sessions`, form-encoded, Bearer secret key, `Idempotency-Key`) and
 * answers a Checkout Session object, so the official SDK runs unmodified against 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'

export interface StubCheckoutSession {
  readonly id: string
  readonly object: 'checkout.session'
  readonly amount_total: number
  readonly currency: string
  readonly client_reference_id: string | null
  readonly client_secret: string | null
  readonly url: string | null
  readonly ui_mode: string
  readonly mode: 'payment'
  readonly payment_status: 'unpaid' | 'paid'
  readonly status: 'open' | 'complete'
  readonly expires_at: number
  readonly metadata: Record<string, string>
}

export interface LocalStripeStub {
  readonly url: string
  /** Form bodies received, parsed, in order. */
  readonly requests: { readonly authorization: string | undefined; readonly idempotencyKey: string | undefined; readonly form: URLSearchParams }[]
  readonly sessions: Map<string, StubCheckoutSession>
  close(): Promise<void>
}

export async function startLocalStripeStub(secretKey: string): Promise<LocalStripeStub> {
  const requests: LocalStripeStub['requests'] = []
  const sessions = new Map<string, StubCheckoutSession>()
  const byIdempotencyKey = new Map<string, StubCheckoutSession>()
  const server: Server = createServer(async (req, res) => {
    const body = await readText(req)
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` })
      res.end(JSON.stringify(value))
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
    if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') return reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` } })
    const form = new URLSearchParams(body)
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined
    requests.push({ authorization: req.headers.authorization, idempotencyKey, form })
    const replayed = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined
    if (replayed) return reply(200, replayed)
    const amount = form.get('line_items[0][price_data][unit_amount_decimal]') ?? form.get('line_items[0][price_data][unit_amount]')
    if (!amount || !/^[1-9][0-9]*$/.test(amount)) return reply(400, { error: { type: 'invalid_request_error', message: 'Invalid integer amount' } })
    const id = `cs_test_${randomBytes(12).toString('hex')}`
    const embedded = form.get('ui_mode') === 'embedded_page'
    const session: StubCheckoutSession = {
      id, object: 'checkout.session', amount_total: Number(amount), currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
      client_reference_id: form.get('client_reference_id'), client_secret: embedded ? `${id}_secret_${randomBytes(6).toString('hex')}` : null,
      url: embedded ? null : `https://checkout.stripe.com/c/pay/${id}`, ui_mode: form.get('ui_mode') ?? 'hosted_page', mode: 'payment',
      payment_status: 'unpaid', status: 'open', expires_at: Math.floor(Date.now() / 1000) + 86400, metadata: { cairnSessionId: form.get('metadata[cairnSessionId]') ?? '' },
    }
    sessions.set(id, session)
    if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session)
    reply(200, session)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, requests, sessions, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
