/**
 * The built-in test payment processor (the default): checkout sessions that no card network ever
 * sees. Nobody pays; a test or a person completes a session in-process with
 * `cairn.completeTestCheckout(sessionId)` (docs/value.md), so the whole checkout flow runs on a
 * fresh machine without network. Its hosted URLs use the reserved `.invalid` domain (RFC 2606) so
 * they can never be mistaken for a real payment page. It accepts no webhooks.
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

  constructor(private readonly clock: Clock) {}

  async createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedCheckoutSession> {
    // The same idempotency key names the same session, as a real processor's would.
    const processorSessionId = `tps_${createHash('sha256').update(input.idempotencyKey).digest('base64url').slice(0, 24)}`
    const expiresAt = new Date(this.clock.now() + TEST_SESSION_LIFETIME_MS).toISOString()
    return input.mode === 'embedded'
      ? { processorSessionId, clientSecret: `${processorSessionId}_secret_test`, expiresAt }
      : { processorSessionId, checkoutUrl: `https://test-processor.invalid/checkout/${processorSessionId}`, expiresAt }
  }

  /** The completion a test processor reports for one of its sessions: paid in full. */
  completion(session: { processorSessionId: string; sessionId: string; amountCents: string; currency: string }): CompletedPayment {
    return { processorSessionId: session.processorSessionId, reference: session.sessionId, amountCents: session.amountCents, currency: session.currency }
  }

  async readCompletionEvent(): Promise<CompletedPayment | undefined> {
    throw new PaymentEventSignatureError('The test payment processor sends no webhooks; complete test sessions with cairn.completeTestCheckout(sessionId)')
  }
}
