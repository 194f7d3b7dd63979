/**
 * A payment processor takes money for a checkout and later reports, in an authenticated event,
 * that it did. Amounts cross this port as decimal strings of the smallest currency unit (cents),
 * never as floating point. Adapters: the built-in test processor (adapters/payments) and Stripe
 * (adapters/stripe).
 */

export interface CheckoutSessionInput {
  /** Cairn's own session id, echoed back in the completion (Stripe: `client_reference_id`). */
  readonly reference: string
  /** Decimal string of cents, positive. */
  readonly amountCents: string
  /** Lowercase ISO 4217. */
  readonly currency: 'usd'
  readonly mode: 'hosted' | 'embedded'
  readonly description: string
  readonly successUrl: string
  readonly cancelUrl: string
  /** The same key creates the same processor session (a retry after a crash never makes two). */
  readonly idempotencyKey: string
}

export interface CreatedCheckoutSession {
  readonly processorSessionId: string
  /** Hosted mode: where the payer goes. */
  readonly checkoutUrl?: string
  /** Embedded mode: what the processor's embed is initialised with. */
  readonly clientSecret?: string
  /** ISO 8601. */
  readonly expiresAt: string
}

/** A processor's authenticated statement that a checkout session was paid. */
export interface CompletedPayment {
  readonly processorSessionId: string
  readonly reference: string | null
  /** Decimal string of cents actually paid. */
  readonly amountCents: string
  readonly currency: string
}

/** Thrown by `readCompletionEvent` when an event is not authentic (bad or missing signature). */
export class PaymentEventSignatureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PaymentEventSignatureError'
  }
}

export interface PaymentProcessor {
  /** Short stable name: `test`, `stripe`. Names the clearing account. */
  readonly name: string
  createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedCheckoutSession>
  /**
   * Authenticate a webhook delivery and read the completion it reports; undefined for authentic
   * events that report no completed payment. Throws PaymentEventSignatureError when not authentic.
   */
  readCompletionEvent(rawBody: string, headers: Readonly<Record<string, string | undefined>>): Promise<CompletedPayment | undefined>
}
