export { SystemClock } from './system-clock.js'
export { CryptoEntropy } from './crypto-entropy.js'
export { HttpWebhookSender } from './http-webhook-sender.js'
