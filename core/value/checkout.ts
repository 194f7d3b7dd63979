/**
 * Checkout: a payer pays an exact USD amount through the configured payment processor, and the
 * processor's authenticated completion credits the target wallet exactly once. Creating a session
 * moves no value; completing it is one movement from the processor's clearing account to the
 * wallet, committed with the session marked `complete` under its version, so a completion that
 * arrives twice, or twice at once, credits once.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { CompletedPayment, CreatedCheckoutSession, PaymentProcessor } from '../../ports/payment-processor.js'
import * as t from 'io-ts'
import type { CollectionSpec } from '../../ports/store.js'
import { sha256Hex } from '../digest/sha256.js'
import { toBase64Url } from '../encoding/base64url.js'
import { conflict, invalidInput, notFound, unavailable, unprocessable, type DomainError } from '../errors/domain-error.js'
import { getIdentity, getIdentityByUsername } from '../identity/identities.js'
import { nullableString, typedCollection } from '../usecases/typed-collection.js'
import { json, type CoreDeps, type JsonReply, type UseCaseFor } from '../usecases/use-case.js'
import type { ResponseOf } from '../usecases/operation-types.js'
import { formatUsdDollars, fromDecimal, parseUsdDollars, toDecimal } from './amount.js'
import { clearingAccount, ISSUANCE, PHI_SALES, walletAccount } from './accounts.js'
import { findSaved, idempotencyClaim, saveWrite, type IdempotencyClaim, type IdempotencyRecord } from './idempotency.js'
import { returnUrlProblem } from './checkout-return-urls.js'
import { executeMovement, refusal, type MovementPlan } from './movement.js'
import { phiMicroForCents } from './phi-price.js'
import { actingUserId } from './principal-user.js'

export const VALUE_CHECKOUTS = 'value.checkouts'
/**
 * A checkout session. `processorKey` is `<processor>:<processorSessionId>`, unique;
 * `createdByUserId` the Connect token's owner, or null for a public embed. `phiMicro` is the
 * micro-Φ the payment buys, priced when the session was created (`payments.phiPerUsd`), so a later
 * price change never alters an open session's promise; null (or absent on sessions recorded before
 * Φ pricing): the payment credits US cents. `successUrl`/`cancelUrl`: where a hosted page returns
 * the payer (the test processor's own page reads them).
 */
const CheckoutRecordCodec = t.readonly(t.intersection([
  t.type({
    sessionId: t.string, processor: t.string, processorSessionId: t.string, processorKey: t.string, amountCents: t.string, currency: t.literal('usd'),
    mode: t.keyof({ hosted: null, embedded: null }), targetUserId: t.string, targetUsername: t.string, createdByUserId: nullableString,
    status: t.keyof({ open: null, complete: null }), checkoutUrl: nullableString, clientSecret: nullableString,
    createdAt: t.string, expiresAt: t.string, completedAt: nullableString, entryId: nullableString,
  }),
  t.partial({ phiMicro: nullableString, successUrl: t.string, cancelUrl: t.string }),
]))
export type CheckoutRecord = t.TypeOf<typeof CheckoutRecordCodec>

export const valueCheckouts = typedCollection({ name: VALUE_CHECKOUTS, uniqueKeys: [{ name: 'byProcessorSession', field: 'processorKey' }] }, CheckoutRecordCodec)
export const valueCheckoutsCollection: CollectionSpec = valueCheckouts.spec

interface CheckoutBody {
  readonly amountUsd: string
  readonly currency: 'usd'
  readonly targetUsername?: string
  readonly mode?: 'hosted' | 'embedded'
  readonly description?: string
  readonly successUrl?: string
  readonly cancelUrl?: string
  readonly idempotencyKey?: string
}

const MAX_DESCRIPTION = 500

/** `POST /api/connect/payments/checkout`: a checkout crediting the token owner's wallet. */
export const createConnectCheckout: UseCaseFor<'createConnectCheckout'> = async (request, deps) => {
  const owner = actingUserId(request.principal)
  if (E.isLeft(owner)) return owner
  const body: CheckoutBody = request.body
  const identity = await getIdentity(deps, owner.right)
  if (!identity) return E.left(notFound('The token\'s owner has no identity on this deployment'))
  if (body.targetUsername !== undefined && body.targetUsername.toLowerCase() !== identity.record.username) {
    return E.left(invalidInput('targetUsername must be omitted or be the token owner\'s: Connect checkouts credit the token owner'))
  }
  const returnUrls = returnUrlProblem(deps, request.principal, body)
  if (returnUrls !== undefined) return E.left(invalidInput(returnUrls))
  return createCheckout(deps, body, { userId: owner.right, username: identity.record.username }, owner.right, { keyScope: `connect:${owner.right}`, replaysSecrets: true })
}

/** `POST /api/payments/embed/checkout`: a public checkout crediting `targetUsername`'s wallet. */
export const createEmbedCheckout: UseCaseFor<'createEmbedCheckout'> = async (request, deps) => {
  const body: CheckoutBody = request.body
  if (body.targetUsername === undefined) return E.left(invalidInput('targetUsername is required: it names the wallet the checkout credits'))
  const returnUrls = returnUrlProblem(deps, request.principal, body)
  if (returnUrls !== undefined) return E.left(invalidInput(returnUrls))
  const target = await getIdentityByUsername(deps, body.targetUsername)
  if (!target) return E.left(notFound('targetUsername names no user of this deployment'))
  // A key is the payer's: a signed-in payer's keys are theirs alone; an anonymous payer cannot be
  // told from another, so a repeat of their key never hands out the session's secret.
  const payer = request.principal.kind === 'session' ? request.principal.userId : undefined
  const idempotency = payer !== undefined
    ? { keyScope: `embed:${target.record.userId}:${payer}`, replaysSecrets: true }
    : { keyScope: `embed:${target.record.userId}:anonymous`, replaysSecrets: false }
  return createCheckout(deps, body, { userId: target.record.userId, username: target.record.username }, null, idempotency)
}

/**
 * Whose idempotency keys a checkout's key lives among, and whether a repeat may be answered with
 * the saved session (its `clientSecret` or `checkoutUrl` included): only when the scope is one caller.
 */
interface CheckoutIdempotency {
  readonly keyScope: string
  readonly replaysSecrets: boolean
}

async function createCheckout(
  deps: CoreDeps, body: CheckoutBody, target: { userId: string; username: string }, createdBy: string | null, idempotency: CheckoutIdempotency,
): Promise<Either<DomainError, JsonReply<ResponseOf<'createEmbedCheckout'>>>> {
  const processor = deps.payments
  if (!processor) return E.left(unavailable('No payment processor is configured on this deployment'))
  const amount = parseUsdDollars(body.amountUsd)
  if (!amount.ok) return E.left(invalidInput(amount.error.startsWith('amount ') ? `amountUsd${amount.error.slice(6)}` : amount.error))
  if (body.description !== undefined && body.description.length > MAX_DESCRIPTION) return E.left(invalidInput(`description must be at most ${MAX_DESCRIPTION} characters`))
  let claim: IdempotencyClaim | undefined
  if (body.idempotencyKey !== undefined) {
    const claimed = idempotencyClaim('checkout', idempotency.keyScope, body.idempotencyKey, body)
    if (E.isLeft(claimed)) return claimed
    claim = claimed.right
    const saved = await findSaved(deps, claim)
    if (E.isLeft(saved)) return saved
    if (saved.right) return replay(saved.right, idempotency)
  }
  const mode = body.mode ?? 'hosted'
  const phiPerUsd = deps.config.deployment.payments?.phiPerUsd
  const sessionId = `cks_${toBase64Url(deps.entropy.bytes(16))}`
  const fallbackUrl = deps.config.baseUrl
  const successUrl = body.successUrl ?? fallbackUrl
  const cancelUrl = body.cancelUrl ?? fallbackUrl
  let created: CreatedCheckoutSession
  try {
    created = await processor.createCheckoutSession({
      reference: sessionId,
      amountCents: toDecimal(amount.amount),
      currency: 'usd',
      mode,
      description: body.description ?? `Cairn wallet top-up for ${target.username}`,
      successUrl,
      cancelUrl,
      // A retried request with the client's key reaches the same processor session.
      idempotencyKey: claim ? `cairn-checkout-${sha256Hex(claim.storeKey)}` : sessionId,
    })
  } catch {
    // Nothing was recorded; the same idempotency key reaches the same processor session on retry.
    return E.left(unavailable('The payment processor did not answer; nothing was recorded, try again'))
  }
  const record: CheckoutRecord = {
    sessionId, processor: processor.name, processorSessionId: created.processorSessionId, processorKey: `${processor.name}:${created.processorSessionId}`,
    amountCents: toDecimal(amount.amount), currency: 'usd', mode, targetUserId: target.userId, targetUsername: target.username, createdByUserId: createdBy,
    status: 'open', checkoutUrl: created.checkoutUrl ?? null, clientSecret: created.clientSecret ?? null,
    createdAt: new Date(deps.clock.now()).toISOString(), expiresAt: created.expiresAt, completedAt: null, entryId: null,
    phiMicro: phiPerUsd === undefined ? null : toDecimal(phiMicroForCents(amount.amount, phiPerUsd)),
    successUrl, cancelUrl,
  }
  const reply = {
    ok: true as const, sessionId, mode, expiresAt: created.expiresAt,
    ...(created.checkoutUrl !== undefined ? { checkoutUrl: created.checkoutUrl } : {}),
    ...(created.clientSecret !== undefined ? { clientSecret: created.clientSecret } : {}),
  }
  const outcome = await deps.store.commit([
    valueCheckouts.put(sessionId, record, { kind: 'absent' }),
    ...(claim ? [saveWrite(claim, { status: 'committed', reply, entryId: null, createdAt: record.createdAt })] : []),
  ])
  if (!outcome.ok) {
    const saved = claim && (await findSaved(deps, claim))
    if (saved && E.isRight(saved) && saved.right) return replay(saved.right, idempotency)
    if (saved && E.isLeft(saved)) return saved
    return E.left(conflict('The checkout could not be recorded; try again'))
  }
  return E.right(json(reply))
}

/** The saved answer to a repeated key, or 409 where the key's scope is not one caller (an anonymous payer). */
function replay(saved: IdempotencyRecord, idempotency: CheckoutIdempotency): Either<DomainError, JsonReply<ResponseOf<'createEmbedCheckout'>>> {
  if (!idempotency.replaysSecrets) {
    return E.left(conflict('This idempotencyKey already created a checkout session, which is only answered to the payer who created it; start a new checkout with a new idempotencyKey (or sign in to retry your own)'))
  }
  return E.right(json(saved.reply as ResponseOf<'createEmbedCheckout'>, { 'idempotent-replayed': 'true' }))
}

/** `GET /api/connect/payments/session?sessionId=…`: for the session's creator or its target. */
export const getConnectCheckoutSession: UseCaseFor<'getConnectCheckoutSession'> = async (request, deps) => {
  const userId = actingUserId(request.principal)
  if (E.isLeft(userId)) return userId
  const sessionId = request.query.sessionId
  const record = (await valueCheckouts.get(deps.store, sessionId))?.value
  if (!record || (record.createdByUserId !== userId.right && record.targetUserId !== userId.right)) return E.left(notFound('No checkout session with this sessionId is yours'))
  const expired = record.status === 'open' && Date.parse(record.expiresAt) <= deps.clock.now()
  return E.right(json({
    ok: true, sessionId: record.sessionId, status: expired ? 'expired' : record.status, amountUsd: formatUsdDollars(fromDecimal(record.amountCents)),
    currency: record.currency, targetUsername: record.targetUsername, ...(record.completedAt !== null ? { completedAt: record.completedAt } : {}),
  }))
}

/**
 * What a completed checkout moves. Priced in Φ: the Φ enters the wallet from `issuance` and, in
 * the same entry, the paid cents go from the processor's clearing account to `sales:phi` (what the
 * deployment earned). Otherwise the cents themselves go to the wallet.
 */
function checkoutLegs(record: CheckoutRecord): Pick<MovementPlan, 'kind' | 'unit' | 'amount' | 'debit' | 'credit' | 'exchange'> {
  const paid = { unit: 'usd' as const, amount: fromDecimal(record.amountCents), debit: clearingAccount(record.processor) }
  const wallet = walletAccount(record.targetUserId)
  if (record.phiMicro === undefined || record.phiMicro === null) return { kind: 'checkout', ...paid, credit: wallet }
  return { kind: 'checkout', unit: 'phi', amount: fromDecimal(record.phiMicro), debit: ISSUANCE, credit: wallet, exchange: { ...paid, credit: PHI_SALES } }
}

/** What completing a checkout did. */
export type CheckoutCompletion =
  | { readonly _tag: 'credited'; readonly sessionId: string; readonly entryId: string }
  | { readonly _tag: 'already-complete'; readonly sessionId: string }
  | { readonly _tag: 'not-ours' }

/**
 * Credit the target wallet for a processor's authenticated completion, exactly once. A paid amount
 * or currency that differs from the session's is refused (422) and credits nothing. Events for
 * sessions Cairn did not create (another integration on the same processor account) are not ours.
 * A paid session is credited even after its expiry: the payer's money was taken.
 */
export async function completeCheckout(deps: CoreDeps, processor: Pick<PaymentProcessor, 'name'>, payment: CompletedPayment): Promise<Either<DomainError, CheckoutCompletion>> {
  const processorKey = `${processor.name}:${payment.processorSessionId}`
  let sessionId = ''
  const result = await executeMovement(deps, {
    plan: async () => {
      const doc = await deps.store.getByUnique(VALUE_CHECKOUTS, 'byProcessorSession', processorKey)
      if (!doc) return E.left(refusal('not_ours', 'No checkout session of this deployment'))
      const record = valueCheckouts.decode(doc)
      sessionId = record.sessionId
      if (record.status === 'complete') return E.left(refusal('already_complete', 'Already credited'))
      const paidExactly = /^[1-9][0-9]*$/.test(payment.amountCents) && fromDecimal(payment.amountCents) === fromDecimal(record.amountCents)
      if (payment.currency.toLowerCase() !== record.currency || !paidExactly) {
        return E.left(unprocessable('The paid amount or currency differs from the checkout session; nothing was credited'))
      }
      return E.right({
        ...checkoutLegs(record), actorUserId: record.createdByUserId,
        publish: { kind: 'checkout', fromUserId: null, toUserId: record.targetUserId },
        alsoWrite: (entry) => [
          valueCheckouts.put(record.sessionId, { ...record, status: 'complete', completedAt: entry.createdAt, entryId: entry.entryId }, { kind: 'version', version: doc.version }),
        ],
        reply: ({ entry }) => ({ entryId: entry.entryId }),
      })
    },
  })
  if (E.isLeft(result)) return result
  switch (result.right._tag) {
    case 'committed': return E.right({ _tag: 'credited', sessionId, entryId: result.right.committed.entry.entryId })
    case 'replayed': return E.right({ _tag: 'already-complete', sessionId })
    case 'Refusal': return E.right(result.right.reasonCode === 'not_ours' ? { _tag: 'not-ours' } : { _tag: 'already-complete', sessionId })
  }
}
