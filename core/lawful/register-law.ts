/**
 * `POST /api/sdk/v1/lawful-actions/laws/register`: a law is registered only from the sealed proof
 * object that encloses it, verified by the proof kernel, and only by its owner (the user who will
 * pay for actions under it). The law record, its transparency-log leaf, an action-ledger event and
 * the idempotency record are ONE commit; a law is content-addressed, so registering it again
 * answers the first registration and writes nothing.
 */
import * as E from 'fp-ts/lib/Either.js'
import { conflict, forbidden } from '../errors/domain-error.js'
import { commitWithLeaves } from '../tlog/sequence.js'
import { kaiMomentAt } from '../time/kai.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import type { ResponseOf } from '../usecases/operation-types.js'
import { findSaved, saveWrite } from '../value/idempotency.js'
import { keyedLawfulRequest, lawfulResult, receiptOf, verifiedPayload } from './lawful-request.js'
import { Law } from './payloads.js'
import { LAW_LEAF_KIND, lawfulLaws, type LawRecord } from './records.js'

type Result = ResponseOf<'registerLaw'>
const REPLAYED = { 'idempotent-replayed': 'true' }

/** @example await registerLaw({ body: { proofObject, idempotencyKey: 'law-1' }, principal, … }, deps) */
export const registerLaw: UseCaseFor<'registerLaw'> = async (request, deps) => {
  const body = request.body
  const keyed = await keyedLawfulRequest(deps, request.principal, body, 'lawful-law', ['proofObject', 'idempotencyKey'])
  if (E.isLeft(keyed)) return keyed
  const { caller, claim, saved } = keyed.right
  if (saved) return E.right(json(saved.reply as Result, REPLAYED))

  const sealed = await verifiedPayload(deps, body.proofObject.exactBytesB64u, Law, 'law')
  if (E.isLeft(sealed)) return sealed
  const { payload: law, payloadSha256: lawDigest, ownerUserId, sealedSha256 } = sealed.right
  if (ownerUserId !== caller.userId) return E.left(forbidden('Only the owner the sealed law names may register it: the law pays from their reserve'))

  const existing = await lawfulLaws.get(deps.store, lawDigest)
  if (existing) return answerExisting(existing.value, ownerUserId)

  const now = deps.clock.now()
  const { receiptDigest } = receiptOf({ action: 'law-registered', lawDigest, lawId: law.lawId, ownerUserId, sealedSha256 }, caller, now)
  const record: LawRecord = {
    lawDigest, law, ownerUserId, sealedSha256, registeredByApplicationId: caller.applicationId,
    registeredAt: new Date(now).toISOString(), registeredAtKaiPulse: kaiMomentAt(now).pulse, receiptDigest,
  }
  const reply = registered(record)
  const { outcome } = await commitWithLeaves(
    deps,
    [lawfulLaws.put(lawDigest, record, { kind: 'absent' }), saveWrite(claim, { status: 'committed', reply, entryId: null, createdAt: record.registeredAt })],
    [{ kind: LAW_LEAF_KIND, lawDigest, sealedSha256 }],
    { actions: [{ kind: 'record', action: 'law_registered', actorUserId: ownerUserId }] },
  )
  if (outcome.ok) return E.right(json(reply))
  // Lost to a concurrent registration: the same key answers what it saved, another key the law as registered.
  const again = await findSaved(deps, claim)
  if (E.isLeft(again)) return again
  if (again.right) return E.right(json(again.right.reply as Result, REPLAYED))
  const winner = await lawfulLaws.get(deps.store, lawDigest)
  if (winner) return answerExisting(winner.value, ownerUserId)
  return E.left(conflict('The law could not be registered at this moment; nothing was written, send it again'))
}

/** The same law again: its registration, unless another owner sealed the same terms first (its payer is theirs). */
function answerExisting(record: LawRecord, ownerUserId: string) {
  if (record.ownerUserId !== ownerUserId) {
    return E.left(conflict('A law with exactly these terms is registered already by another owner, who pays for it; give yours its own lawId; nothing was written'))
  }
  return E.right(json(registered(record)))
}

const registered = (record: LawRecord) => lawfulResult('law-registered', { lawDigest: record.lawDigest, receiptDigest: record.receiptDigest })
