/**
 * The payment processor's webhook (`POST /webhooks/payments/{processor}`, outside the contract's
 * operations): authenticate the delivery with the processor's own signature check, then credit the
 * checkout exactly once. Authentic events that complete nothing, or complete another integration's
 * sessions, are acknowledged (200) so the processor stops resending them; a forged one is 400.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { PaymentEventSignatureError } from '../../ports/payment-processor.js'
import { invalidInput, notFound, type DomainError } from '../errors/domain-error.js'
import { json, type CoreDeps, type Reply } from '../usecases/use-case.js'
import { completeCheckout } from './checkout.js'

export async function receivePaymentWebhook(
  deps: CoreDeps, processorName: string, rawBody: string, headers: Readonly<Record<string, string | undefined>>,
): Promise<Either<DomainError, Reply>> {
  const processor = deps.payments
  if (!processor || processor.name !== processorName) return E.left(notFound(`No ${processorName} payment processor is configured on this deployment`))
  let payment
  try {
    payment = await processor.readCompletionEvent(rawBody, headers)
  } catch (error) {
    if (error instanceof PaymentEventSignatureError) return E.left(invalidInput(error.message))
    throw error
  }
  if (!payment) return E.right(json({ ok: true, received: true, credited: false }))
  const completion = await completeCheckout(deps, processor, payment)
  if (E.isLeft(completion)) return completion
  return E.right(json({ ok: true, received: true, credited: completion.right._tag === 'credited' }))
}
