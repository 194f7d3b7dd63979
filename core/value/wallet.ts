/** `GET /api/connect/wallet/me`: the token owner's balances, exact, as decimal strings. */
import * as E from 'fp-ts/lib/Either.js'
import { getIdentity } from '../identity/identities.js'
import { json, type CoreDeps, type UseCaseFor } from '../usecases/use-case.js'
import { loadAccount, walletAccount } from './accounts.js'
import { actingUserId } from './principal-user.js'

export async function readWallet(deps: Pick<CoreDeps, 'store'>, userId: string) {
  const [phi, usd, identity] = await Promise.all([
    loadAccount(deps, 'phi', walletAccount(userId)), loadAccount(deps, 'usd', walletAccount(userId)), getIdentity(deps, userId),
  ])
  const updatedAt = [phi.record.updatedAt, usd.record.updatedAt].filter((at) => at !== '').sort().at(-1)
  return {
    userId,
    ...(identity ? { username: identity.record.username } : {}),
    balancePhiMicro: phi.record.balance,
    balanceUsdCents: usd.record.balance,
    ...(updatedAt ? { updatedAt } : {}),
  }
}

export const getConnectWallet: UseCaseFor<'getConnectWallet'> = async (request, deps) => {
  const userId = actingUserId(request.principal)
  if (E.isLeft(userId)) return userId
  return E.right(json({ ok: true, wallet: await readWallet(deps, userId.right) }))
}
