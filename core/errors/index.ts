export * from './domain-error.js'
export { formatDecodeErrors } from './decode-errors.js'
export { quoteInput, boundErrorSentence } from './quote-input.js'
