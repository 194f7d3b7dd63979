/**
 * `GET` and `POST <base>/checkout/test/{sessionId}`: the test payment processor's hosted page, the
 * counterpart of Stripe Checkout's for the built-in `test` processor. A person sees what they pay
 * and what it buys, and presses Pay (the session completes through `completeCheckout`, exactly as
 * a processor's webhook completes it) or Cancel; either way the browser returns to the session's
 * `successUrl` or `cancelUrl`. No money moves: the page says so, and a deployment that takes real
 * payments configures `stripe` (docs/value.md). The session id is the page's only key, as a
 * hosted processor's URL is; the form is accepted only from this page (Origin check).
 */
import * as E from 'fp-ts/lib/Either.js'
import { TestPaymentProcessor } from '../../../adapters/payments/index.js'
import { completeCheckout, formatPhi, formatUsdDollars, fromDecimal, valueCheckouts, type CheckoutRecord } from '../../../core/value/index.js'
import { escapeHtml, messagePage, pageDocument, pageResponse } from './html.js'
import { readPageForm, seeOther, type PageContext } from './page-context.js'

export const TEST_CHECKOUT_PATH = '/checkout/test/{sessionId}'

interface OpenSession {
  readonly processor: TestPaymentProcessor
  readonly record: CheckoutRecord
  readonly expired: boolean
}

async function loadSession(context: PageContext, request: Request): Promise<OpenSession | Response> {
  await context.env.ready
  const processor = context.env.deps.payments
  const notFound = () => messagePage('No such checkout', 'This payment page does not exist; start again from where you were asked to pay.', context.basePath, 404)
  if (!(processor instanceof TestPaymentProcessor)) return notFound()
  const sessionId = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '')
  const record = sessionId.startsWith('cks_') ? (await valueCheckouts.get(context.env.deps.store, sessionId))?.value : undefined
  if (!record || record.processor !== processor.name || record.mode !== 'hosted') return notFound()
  return { processor, record, expired: Date.parse(record.expiresAt) <= context.env.deps.clock.now() }
}

/** What the payment buys, in words: "100 Φ" or "$12.50 in US balance". */
function whatItBuys(record: CheckoutRecord): string {
  return record.phiMicro ? `${formatPhi(fromDecimal(record.phiMicro))} Φ` : `$${formatUsdDollars(fromDecimal(record.amountCents))} of US balance`
}

const returnTargets = (context: PageContext, record: CheckoutRecord) =>
  [record.successUrl ?? context.base.href, record.cancelUrl ?? context.base.href].map((url) => new URL(url).origin)

export async function testCheckoutPage(context: PageContext, request: Request): Promise<Response> {
  const session = await loadSession(context, request)
  if (session instanceof Response) return session
  const { record, expired } = session
  const amount = `$${formatUsdDollars(fromDecimal(record.amountCents))}`
  if (record.status === 'complete') return messagePage('Already paid', `This checkout was paid; ${whatItBuys(record)} went to ${record.targetUsername}'s wallet.`, context.basePath)
  if (expired) return messagePage('Checkout expired', 'This checkout expired before it was paid; nothing was charged. Start a new one.', context.basePath, 410)
  const body = `<p class="notice">Test payment — no card is charged and no money moves.</p>
<h1>Pay <span id="amount">${escapeHtml(amount)}</span> USD</h1>
<p>For <strong id="buys">${escapeHtml(whatItBuys(record))}</strong> in the wallet of <strong id="target">${escapeHtml(record.targetUsername)}</strong>.</p>
<form method="post" action="${escapeHtml(context.basePath)}/checkout/test/${escapeHtml(encodeURIComponent(record.sessionId))}">
  <button type="submit" name="action" value="pay" id="pay">Pay ${escapeHtml(amount)}</button>
  <button type="submit" name="action" value="cancel" id="cancel" class="secondary">Cancel</button>
</form>`
  return pageResponse(pageDocument(`Pay ${amount} — Cairn test checkout`, body, context.basePath), { formTargets: returnTargets(context, record) })
}

export async function submitTestCheckout(context: PageContext, request: Request): Promise<Response> {
  const refuse = (message: string, status: number) => messagePage('Payment not made', message, context.basePath, status)
  // Browsers send Origin on every form POST; a missing or foreign one is not this page's form.
  if (request.headers.get('origin') !== context.base.origin) return refuse('This form may only be sent from Cairn\'s own checkout page.', 403)
  const session = await loadSession(context, request)
  if (session instanceof Response) return session
  const form = await readPageForm(request)
  const action = form?.get('action')
  if (action !== 'pay' && action !== 'cancel') return refuse('The form could not be read; press Pay or Cancel on the checkout page.', 400)
  const { processor, record, expired } = session
  const back = (url: string | undefined) => seeOther(url ?? context.base.href)
  if (action === 'cancel') return back(record.cancelUrl)
  if (record.status === 'open' && expired) return refuse('This checkout expired before it was paid; nothing was charged. Start a new one.', 410)
  const completion = await completeCheckout(context.env.deps, processor, processor.completion(record))
  if (E.isLeft(completion)) return refuse(completion.left.message, 422)
  return back(record.successUrl)
}
