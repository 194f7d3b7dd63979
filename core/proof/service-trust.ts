/** The trust material this service publishes: its proof key set (kept forever) and its log key. */
import { logSigner } from '../tlog/log-identity.js'
import type { CoreDeps } from '../usecases/use-case.js'
import type { TrustMaterial } from './verify.js'

export async function serviceTrust(deps: Pick<CoreDeps, 'keys' | 'config'>): Promise<TrustMaterial> {
  // The log signs with the current proof key, which the KeyStore makes on first use: ask for it
  // before listing the published keys, so that a fresh deployment's first answer already holds the
  // key its first seal is signed with (listed at the same time, the two raced and keys came empty).
  const log = await logSigner(deps.keys, deps.config.baseUrl)
  const { keys } = await deps.keys.jwks('proof')
  return { proofKeys: keys, logKeys: [log.verifierKey] }
}
