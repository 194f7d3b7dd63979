/**
 * A metered Production run, the same path for Creator runs and Twin messages: find an earlier
 * answer under the caller's `requestId` (a retry is answered from it and charged nothing), refuse
 * an expired quote or a balance below the quote before generating, generate, then charge the usage
 * through the value ledger in ONE commit with the run record and its webhook deliveries — or write
 * nothing. A generator failure charges nothing; a concurrent retry that generated too loses the
 * commit to the first and answers the first's run.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { PortUnavailableError } from '../../ports/errors.js'
import type { GeneratedText, TextGenerationRequest } from '../../ports/text-generator.js'
import { toBase64Url } from '../encoding/base64url.js'
import { invalidInput, unavailable, unprocessable, type DomainError } from '../errors/domain-error.js'
import { json, type CoreDeps, type JsonReply } from '../usecases/use-case.js'
import { loadAccount, PRODUCTION_USAGE, walletAccount } from '../value/accounts.js'
import { toDecimal } from '../value/amount.js'
import { findSaved, idempotencyClaim, savedReplies } from '../value/idempotency.js'
import { executeMovement } from '../value/movement.js'
import { nullableString } from '../usecases/typed-collection.js'
import { enqueueWrite, newDelivery, subscribedEndpoints } from '../webhooks/outbox.js'
import type { WebhookEventTypeName } from '../webhooks/event-types.js'
import { chargeOf, pricingOf, quoteOf } from './pricing.js'
import { RunKindCodec, runWrite, type RunKind, type RunRecord } from './runs.js'

/** Longest prompt or message a run takes, in UTF-16 units (a quote must stay meaningful). */
export const MAX_INPUT_LENGTH = 32_000

export interface MeteredRunInput {
  readonly kind: RunKind
  readonly ownerId: string
  /** The request body as sent: a retry must send the same one. */
  readonly body: { readonly requestId: string; readonly quoteExpiresAt: string }
  readonly input: string
  readonly system: string
  readonly username: string | null
  readonly threadId: string | null
  readonly eventType: WebhookEventTypeName
}

/** What a run answers, saved as such under its idempotency key and answered again to a retry. */
const MeteredRunReplyCodec = t.readonly(t.type({
  ok: t.literal(true),
  run: t.readonly(t.type({
    runId: t.string, kind: RunKindCodec, requestId: t.string, username: nullableString, threadId: nullableString, output: t.string, model: t.string,
    usage: t.readonly(t.type({ inputTokens: t.number, outputTokens: t.number })),
    quotePhiMicro: t.string, chargedPhiMicro: t.string, entryId: t.string, createdAt: t.string,
  })),
}))
export type MeteredRunReply = t.TypeOf<typeof MeteredRunReplyCodec>
const savedRunReply = savedReplies(MeteredRunReplyCodec)

export async function runMetered(deps: CoreDeps, run: MeteredRunInput): Promise<Either<DomainError, JsonReply<MeteredRunReply>>> {
  if (run.input.length > MAX_INPUT_LENGTH) return E.left(invalidInput(`The ${run.kind === 'creator' ? 'prompt' : 'message'} must be at most ${MAX_INPUT_LENGTH} characters`))
  const claim = idempotencyClaim(`production_${run.kind}`, run.ownerId, run.body.requestId, run.body)
  if (E.isLeft(claim)) return E.left(invalidInput(`requestId must be 1 to 255 characters`))
  const saved = await findSaved(deps, claim.right)
  if (E.isLeft(saved)) return E.left(unprocessable('This requestId was already used with a different request; use a new requestId for a new run'))
  if (saved.right) return E.right(json(savedRunReply(claim.right, saved.right), { 'idempotent-replayed': 'true' }))

  const now = deps.clock.now()
  if (Date.parse(run.body.quoteExpiresAt) <= now) return E.left(unprocessable('The quote expired at quoteExpiresAt; nothing was charged, request a new quote'))
  const pricing = pricingOf(deps.config.deployment.production)
  const quote = quoteOf(pricing, run.system + run.input)
  const wallet = await loadAccount(deps, 'phi', walletAccount(run.ownerId))
  if (wallet.balance < quote) return E.left(unprocessable(insufficient(quote, wallet.balance)))
  if (!deps.text) return E.left(unavailable('No text generator is configured; nothing was charged'))

  const request: TextGenerationRequest = { system: run.system, prompt: run.input, maxTokens: pricing.maxOutputTokens, user: run.ownerId }
  let generated: GeneratedText
  try {
    generated = await deps.text.generate(request)
  } catch (error) {
    if (error instanceof PortUnavailableError) return E.left(unavailable('The text generator is unavailable; nothing was charged, try again'))
    throw error
  }
  const charged = chargeOf(pricing, generated, quote)
  const runId = `run_${toBase64Url(deps.entropy.bytes(16))}`
  const createdAt = new Date(now).toISOString()
  const record = (entryId: string): RunRecord => ({
    runId, kind: run.kind, ownerId: run.ownerId, requestId: run.body.requestId, username: run.username, threadId: run.threadId,
    generator: deps.text!.name, model: generated.model, inputTokens: generated.inputTokens, outputTokens: generated.outputTokens,
    quotePhiMicro: toDecimal(quote), chargedPhiMicro: toDecimal(charged), entryId, output: generated.text, createdAt,
  })

  const result = await executeMovement(deps, {
    idempotency: claim.right,
    plan: async () => {
      // Read on every attempt, so deliveries go to the endpoints subscribed when the run commits.
      const endpoints = await subscribedEndpoints(deps, run.ownerId, run.eventType)
      return E.right({
        kind: 'production_usage', unit: 'phi', amount: charged, debit: walletAccount(run.ownerId), credit: PRODUCTION_USAGE, actorUserId: run.ownerId,
        memo: `${run.kind} run ${runId}`,
        alsoWrite: (entry) => {
          const stored = record(entry.entryId)
          const data = eventDataOf(stored)
          return [runWrite(stored), ...endpoints.map((endpoint) => enqueueWrite(newDelivery(deps, endpoint, run.eventType, data)))]
        },
        reply: ({ entry }) => replyOf(record(entry.entryId)),
      })
    },
  })
  if (E.isLeft(result)) return result
  switch (result.right._tag) {
    case 'committed': return E.right(json(replyOf(record(result.right.committed.entry.entryId))))
    case 'replayed': return E.right(json(savedRunReply(claim.right, result.right.saved), { 'idempotent-replayed': 'true' }))
    case 'Refusal': return E.left(unprocessable(insufficient(charged, null)))
  }
}

function insufficient(needed: bigint, balance: bigint | null): string {
  return `The Φ balance${balance === null ? '' : ` (${toDecimal(balance)} µΦ)`} is lower than this run's ${balance === null ? 'charge' : 'quote'} of ${toDecimal(needed)} µΦ; nothing was charged`
}

const replyOf = (record: RunRecord): MeteredRunReply => ({
  ok: true,
  run: {
    runId: record.runId, kind: record.kind, requestId: record.requestId, username: record.username, threadId: record.threadId, output: record.output,
    model: record.model, usage: { inputTokens: record.inputTokens, outputTokens: record.outputTokens },
    quotePhiMicro: record.quotePhiMicro, chargedPhiMicro: record.chargedPhiMicro, entryId: record.entryId, createdAt: record.createdAt,
  },
})

/** The event's data, in the shape the published test events show (core/webhooks/test-event.ts). */
function eventDataOf(record: RunRecord): Record<string, unknown> {
  const usage = { creditsUsed: record.chargedPhiMicro, model: record.model, inputTokens: record.inputTokens, outputTokens: record.outputTokens, entryId: record.entryId }
  return record.kind === 'creator'
    ? { runId: record.runId, requestId: record.requestId, output: record.output, ...usage }
    : { messageId: record.runId, requestId: record.requestId, username: record.username, ...(record.threadId ? { threadId: record.threadId } : {}), reply: record.output, ...usage }
}
