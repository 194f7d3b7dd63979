/** inversify tokens, one per port: hosts bind adapters to them, the core asks for them. */
export const TOKENS = {
  Clock: Symbol.for('cairn.Clock'),
  Entropy: Symbol.for('cairn.Entropy'),
  Store: Symbol.for('cairn.Store'),
  BlobStore: Symbol.for('cairn.BlobStore'),
  EventBus: Symbol.for('cairn.EventBus'),
  KeyStore: Symbol.for('cairn.KeyStore'),
  Config: Symbol.for('cairn.Config'),
  PaymentProcessor: Symbol.for('cairn.PaymentProcessor'),
  TextGenerator: Symbol.for('cairn.TextGenerator'),
  ImageGenerator: Symbol.for('cairn.ImageGenerator'),
} as const
