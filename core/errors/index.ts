export * from './domain-error.js'
export { formatDecodeErrors } from './decode-errors.js'
