/**
 * Stripe as the payment processor, through the official `stripe` SDK: Checkout Sessions (hosted or
 * embedded) for an exact amount in cents, and completion from Stripe's signed webhook events
 * (`checkout.session.completed`, `checkout.session.async_payment_succeeded` once paid), verified
 * with the SDK's own signature check. Secrets come from the environment (hosts/library):
 * `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`.
 */
import type Stripe from 'stripe'
import { loadOptionalPackage } from '../shared/optional-package.js'
import {
  PaymentEventSignatureError, type CheckoutSessionInput, type CompletedPayment, type CreatedCheckoutSession, type PaymentProcessor,
} from '../../ports/payment-processor.js'

export interface StripeProcessorOptions {
  readonly secretKey: string
  readonly webhookSecret: string
  /** Where the Stripe API is, for tests against a local stub: `http://127.0.0.1:12111`. @default Stripe's */
  readonly apiBaseUrl?: string
  /** Seconds a webhook's signature timestamp may be old. @default 300 (the SDK's) */
  readonly webhookToleranceSeconds?: number
}

const COMPLETIONS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded'])

export class StripePaymentProcessor implements PaymentProcessor {
  readonly name = 'stripe'
  /** The SDK is an optional peer dependency, loaded on first use. */
  private sdk: Promise<{ readonly stripe: Stripe; readonly Stripe: typeof Stripe }> | undefined

  constructor(private readonly options: StripeProcessorOptions) {}

  private loaded() {
    this.sdk ??= loadOptionalPackage('stripe', 'The payment processor "stripe"', () => import('stripe')).then(({ default: StripeSdk }) => {
      const api = this.options.apiBaseUrl ? new URL(this.options.apiBaseUrl) : undefined
      const stripe = new StripeSdk(this.options.secretKey, {
        maxNetworkRetries: 2,
        ...(api ? { host: api.hostname, port: api.port, protocol: api.protocol === 'http:' ? 'http' : 'https' } : {}),
      })
      return { stripe, Stripe: StripeSdk }
    })
    return this.sdk
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedCheckoutSession> {
    const embedded = input.mode === 'embedded'
    const { stripe, Stripe: StripeSdk } = await this.loaded()
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        ui_mode: embedded ? 'embedded_page' : 'hosted_page',
        client_reference_id: input.reference,
        metadata: { cairnSessionId: input.reference },
        line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount_decimal: StripeSdk.Decimal.from(input.amountCents), product_data: { name: input.description } } }],
        ...(embedded ? { return_url: input.successUrl } : { success_url: input.successUrl, cancel_url: input.cancelUrl }),
      },
      { idempotencyKey: input.idempotencyKey },
    )
    return {
      processorSessionId: session.id,
      ...(session.url ? { checkoutUrl: session.url } : {}),
      ...(session.client_secret ? { clientSecret: session.client_secret } : {}),
      expiresAt: new Date(session.expires_at * 1000).toISOString(),
    }
  }

  async readCompletionEvent(rawBody: string, headers: Readonly<Record<string, string | undefined>>): Promise<CompletedPayment | undefined> {
    const signature = headers['stripe-signature']
    if (!signature) throw new PaymentEventSignatureError('The Stripe-Signature header is missing')
    const { stripe } = await this.loaded()
    let event: Stripe.Event
    try {
      event = await stripe.webhooks.constructEventAsync(rawBody, signature, this.options.webhookSecret, this.options.webhookToleranceSeconds)
    } catch (error) {
      throw new PaymentEventSignatureError(`The Stripe webhook signature does not verify: ${(error as Error).message}`)
    }
    if (!COMPLETIONS.has(event.type)) return undefined
    const session = event.data.object as Stripe.Checkout.Session
    if (session.payment_status !== 'paid' || session.amount_total === null || session.currency === null) return undefined
    return {
      processorSessionId: session.id,
      reference: session.client_reference_id,
      // An integer count of cents from Stripe's JSON, converted to its exact decimal string.
      amountCents: String(session.amount_total),
      currency: session.currency,
    }
  }
}
