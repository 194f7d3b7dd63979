export { StripePaymentProcessor, type StripeProcessorOptions } from './stripe-payment-processor.js'
