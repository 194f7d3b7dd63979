/** The trust material this service publishes: its proof key set (kept forever) and its log key. */
import { logSigner } from '../tlog/log-identity.js'
import type { CoreDeps } from '../usecases/use-case.js'
import type { TrustMaterial } from './verify.js'

export async function serviceTrust(deps: Pick<CoreDeps, 'keys' | 'config'>): Promise<TrustMaterial> {
  const [{ keys }, log] = await Promise.all([deps.keys.jwks('proof'), logSigner(deps.keys, deps.config.baseUrl)])
  return { proofKeys: keys, logKeys: [log.verifierKey] }
}
