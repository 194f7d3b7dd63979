/**
 * The built-in test payment processor (the default): checkout sessions that no card network ever
 * sees. Nobody pays: a person opens the session's hosted page on this server
 * (`<base URL>/checkout/test/<sessionId>`, hosts/http/pages/test-checkout-page.ts) and presses Pay
 * or Cancel, or a program completes it in-process with `cairn.completeTestCheckout(sessionId)`
 * (docs/value.md), so the whole checkout flow runs on a fresh machine without network. It accepts
 * no webhooks.
 */
import { createHash } from 'node:crypto'
import {
  PaymentEventSignatureError, type CheckoutSessionInput, type CompletedPayment, type CreatedCheckoutSession, type PaymentProcessor,
} from '../../ports/payment-processor.js'
import type { Clock } from '../../ports/clock.js'

/** How long a test session stays open: 24 hours, like Stripe's default. */
export const TEST_SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000

export class TestPaymentProcessor implements PaymentProcessor {
  readonly name = 'test'

  /** @param baseUrl the deployment's public base URL: hosted pages are served under it. */
  constructor(private readonly clock: Clock, private readonly baseUrl: string) {}

  async createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedCheckoutSession> {
    // The same idempotency key names the same session, as a real processor's would.
    const processorSessionId = `tps_${createHash('sha256').update(input.idempotencyKey).digest('base64url').slice(0, 24)}`
    const expiresAt = new Date(this.clock.now() + TEST_SESSION_LIFETIME_MS).toISOString()
    return input.mode === 'embedded'
      ? { processorSessionId, clientSecret: `${processorSessionId}_secret_test`, expiresAt }
      : { processorSessionId, checkoutUrl: testCheckoutUrl(this.baseUrl, input.reference), expiresAt }
  }

  /** The completion a test processor reports for one of its sessions: paid in full. */
  completion(session: { processorSessionId: string; sessionId: string; amountCents: string; currency: string }): CompletedPayment {
    return { processorSessionId: session.processorSessionId, reference: session.sessionId, amountCents: session.amountCents, currency: session.currency }
  }

  async readCompletionEvent(): Promise<CompletedPayment | undefined> {
    throw new PaymentEventSignatureError('The test payment processor sends no webhooks; complete test sessions with cairn.completeTestCheckout(sessionId)')
  }
}

/** Where the test processor's hosted page for Cairn's session `sessionId` is. */
export const testCheckoutUrl = (baseUrl: string, sessionId: string) => `${baseUrl.replace(/\/+$/, '')}/checkout/test/${encodeURIComponent(sessionId)}`
