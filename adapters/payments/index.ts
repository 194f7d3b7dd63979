export { TestPaymentProcessor, TEST_SESSION_LIFETIME_MS, testCheckoutUrl } from './test-payment-processor.js'
