/**
 * Standard Webhooks signatures (standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256>`
 * over `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64 bytes after `whsec_`.
 */
import { createHmac } from 'node:crypto'
import type { Entropy } from '../../ports/entropy.js'

export const SECRET_PREFIX = 'whsec_'

/** A new endpoint secret: 32 random bytes. @example newWebhookSecret(entropy) // 'whsec_…' */
export function newWebhookSecret(entropy: Entropy): string {
  return SECRET_PREFIX + Buffer.from(entropy.bytes(32)).toString('base64')
}

/** The three Standard Webhooks headers of one delivery attempt. */
export interface SignedHeaders {
  readonly 'webhook-id': string
  readonly 'webhook-timestamp': string
  readonly 'webhook-signature': string
}

/**
 * @example signDelivery('whsec_…', 'msg_1', 1700000000, '{"type":"creator.run.completed"}')
 */
export function signDelivery(secret: string, id: string, timestampSeconds: number, body: string): SignedHeaders {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` }
}
