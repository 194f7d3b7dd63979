/**
 * The note operations: mint and claim (Connect), download (the note's owner only) and the public
 * embed claim into a target username's wallet. Rules are in notes.ts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { invalidInput, notFound } from '../errors/domain-error.js'
import { getIdentityByUsername } from '../identity/identities.js'
import type { ResponseOf } from '../usecases/operation-types.js'
import { json, type UseCaseFor } from '../usecases/use-case.js'
import { claimNote, downloadNote, mintNote, walletNoteOf } from './notes.js'
import { actingUserId } from './principal-user.js'

export const mintWalletNote: UseCaseFor<'mintWalletNote'> = async (request, deps) => {
  const userId = actingUserId(request.principal)
  if (E.isLeft(userId)) return userId
  const minted = await mintNote(deps, userId.right, request.body)
  if (E.isLeft(minted)) return minted
  const body = minted.right.body as ResponseOf<'mintWalletNote'>
  return E.right(minted.right.replayed ? json(body, { 'idempotent-replayed': 'true' }) : json(body))
}

export const claimWalletNote: UseCaseFor<'claimWalletNote'> = async (request, deps) => {
  const userId = actingUserId(request.principal)
  if (E.isLeft(userId)) return userId
  const claimed = await claimNote(deps, userId.right, request.body)
  if (E.isLeft(claimed)) return claimed
  const note = walletNoteOf(claimed.right.note)
  return E.right(json({ ok: true, note, notes: [note], ...(claimed.right.event ? { event: claimed.right.event } : {}) } as ResponseOf<'claimWalletNote'>))
}

export const downloadWalletNote: UseCaseFor<'downloadWalletNote'> = async (request, deps) => {
  const userId = actingUserId(request.principal)
  if (E.isLeft(userId)) return userId
  const download = await downloadNote(deps, userId.right, request.params.noteId)
  if (E.isLeft(download)) return download
  return E.right(json(download.right as ResponseOf<'downloadWalletNote'>))
}

/** `POST /api/payments/embed/note-claim`: `{ targetUsername, note }` credits that user's wallet. */
export const claimEmbedNote: UseCaseFor<'claimEmbedNote'> = async (request, deps) => {
  const body = request.body as Record<string, unknown>
  if (typeof body['targetUsername'] !== 'string' || body['targetUsername'] === '') return E.left(invalidInput('targetUsername is required: it names the wallet the note is claimed into'))
  const target = await getIdentityByUsername(deps, body['targetUsername'])
  if (!target) return E.left(notFound('targetUsername names no user of this deployment'))
  const claimed = await claimNote(deps, target.record.userId, body)
  if (E.isLeft(claimed)) return claimed
  return E.right(json({
    ok: true, targetUsername: target.record.username, claimed: [walletNoteOf(claimed.right.note)], events: claimed.right.event ? [claimed.right.event] : [],
  } as ResponseOf<'claimEmbedNote'>))
}
