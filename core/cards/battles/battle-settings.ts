/**
 * `POST …/cards/battle-settings` (Session): the owner of a verified card opts it in or out of AI
 * Twin battle defense. While opted in, the owner's Twin accepts fun and XP battles against the card
 * on the owner's behalf, with a seed from the service's entropy; it never stakes Φ or the card.
 */
import * as E from 'fp-ts/lib/Either.js'
import { BattleSettings } from '../../contract/accepted-bodies.js'
import { formatDecodeErrors } from '../../errors/decode-errors.js'
import { conflict, invalidInput, unauthenticated } from '../../errors/domain-error.js'
import { commitWithLeaves } from '../../tlog/sequence.js'
import { json, type UseCaseFor } from '../../usecases/use-case.js'
import { holdingWrite, loadHeldCard, unknownCard } from '../holdings.js'
import { ownerCheck } from '../market/market-listing.js'

/** @example await saveBattleSettings({ body: { cardId, twinDefense: true }, principal, … }, deps) */
export const saveBattleSettings: UseCaseFor<'saveBattleSettings'> = async (request, deps) => {
  const decoded = BattleSettings.decode(request.body)
  if (E.isLeft(decoded)) return E.left(invalidInput(formatDecodeErrors(decoded.left, 'body')))
  if (request.principal.kind !== 'session') return E.left(unauthenticated('Battle settings are saved by the card\'s owner, signed in (a session cookie)'))
  const { cardId, twinDefense } = decoded.right
  const held = await loadHeldCard(deps, cardId)
  if (!held) return E.left(unknownCard(cardId))
  const holding = ownerCheck(held, request.principal.userId)
  if (E.isLeft(holding)) return holding
  const answer = json({ ok: true, cardId, twinDefense })
  if (holding.right.twinDefense === twinDefense) return E.right(answer)
  const { outcome } = await commitWithLeaves(deps, [holdingWrite(held, { ...holding.right, twinDefense })], [], {
    actions: [{ kind: 'record', action: twinDefense ? 'card_twin_defense_on' : 'card_twin_defense_off', actorUserId: request.principal.userId }],
  })
  if (!outcome.ok) return E.left(conflict('The card changed while its settings were being saved; nothing was written, try again'))
  return E.right(answer)
}
