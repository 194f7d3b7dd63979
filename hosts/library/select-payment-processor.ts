/**
 * Which payment processor checkout uses: the deployment configuration names it
 * (`"payments": { "processor": "test" | "stripe" }`, default `test`), and secrets come only from
 * the environment — `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`, and for tests against a local
 * stub `STRIPE_API_BASE_URL` — never from files in the repository.
 */
import { TestPaymentProcessor } from '../../adapters/payments/index.js'
import { StripePaymentProcessor } from '../../adapters/stripe/index.js'
import type { CoreConfig } from '../../core/usecases/use-case.js'
import type { Clock } from '../../ports/clock.js'
import type { PaymentProcessor } from '../../ports/payment-processor.js'

export function selectPaymentProcessor(config: CoreConfig, clock: Clock, env: NodeJS.ProcessEnv = process.env): PaymentProcessor {
  const processor = config.deployment.payments?.processor ?? 'test'
  if (processor === 'test') return new TestPaymentProcessor(clock, config.baseUrl)
  const secretKey = env['STRIPE_SECRET_KEY']
  const webhookSecret = env['STRIPE_WEBHOOK_SECRET']
  if (!secretKey || !webhookSecret) throw new Error('The stripe payment processor needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET in the environment')
  const apiBaseUrl = env['STRIPE_API_BASE_URL']
  return new StripePaymentProcessor({ secretKey, webhookSecret, ...(apiBaseUrl ? { apiBaseUrl } : {}) })
}
