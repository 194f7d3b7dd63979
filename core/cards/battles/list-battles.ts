/**
 * `GET …/cards/battle-request` (Session): the signed-in player's battle queues: requests waiting for
 * their answer (`incoming`), their requests waiting for an answer (`outgoing`), accepted battles
 * waiting for the challenger's reveal (`active`), the latest ended ones (`recent`), and their tally.
 */
import * as E from 'fp-ts/lib/Either.js'
import { unauthenticated } from '../../errors/domain-error.js'
import { json, type UseCaseFor } from '../../usecases/use-case.js'
import { cardBattles, cardXp, type BattleRecord } from './battle-records.js'
import { publicBattle } from './battle-view.js'

/** Battles read per side: the newest 200 of each. */
const LIMIT = 200
const RECENT = 20

/** @example await listBattleRequests({ principal, … }, deps) */
export const listBattleRequests: UseCaseFor<'listBattleRequests'> = async (request, deps) => {
  if (request.principal.kind !== 'session') return E.left(unauthenticated('Battle queues are read by a signed-in user (a session cookie)'))
  const userId = request.principal.userId
  const side = async (index: string) => (await deps.store.query(cardBattles.name, { index, equals: [userId], order: 'desc', limit: LIMIT })).items.map(cardBattles.decode)
  const [asChallenger, asOpponent, tally] = await Promise.all([side('by_challenger'), side('by_opponent'), cardXp.get(deps.store, userId)])
  const all = [...asChallenger, ...asOpponent].sort((a, b) => b.createdAtMs - a.createdAtMs)
  const view = (battles: readonly BattleRecord[]) => battles.map((battle) => ({ ...publicBattle(battle), yourSide: battle.challengerUserId === userId ? 'challenger' : 'opponent' }))
  return E.right(json({
    ok: true,
    incoming: view(asOpponent.filter((battle) => battle.status === 'pending')),
    outgoing: view(asChallenger.filter((battle) => battle.status === 'pending')),
    active: view(all.filter((battle) => battle.status === 'accepted')),
    recent: view(all.filter((battle) => battle.endedAtMs !== null).slice(0, RECENT)),
    tally: tally?.value ?? { userId, xp: 0, battles: 0, wins: 0, draws: 0, losses: 0 },
  }, { 'cache-control': 'no-store' }))
}
