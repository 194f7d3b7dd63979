export { TestPaymentProcessor, TEST_SESSION_LIFETIME_MS } from './test-payment-processor.js'
