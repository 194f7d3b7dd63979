/**
 * Every public component (the spec's schemas without a V124/V125 prefix, minus the three in
 * common.ts) plus the six the spec implies: the webhook endpoint and its three request bodies,
 * and the release record and comparison.
 */
import { connectComponents } from './connect.js'
import { identityComponents } from './identity.js'
import { paymentsComponents } from './payments.js'
import { productionComponents } from './production.js'
import { publicProofComponents } from './public-proof.js'
import { releasesComponents } from './releases.js'
import { sdkComponents } from './sdk.js'
import { signalComponents } from './signal.js'
import { twinComponents } from './twin.js'
import { verificationComponents } from './verification.js'
import { walletComponents } from './wallet.js'
import { worldComponents } from './world.js'

export const publicComponents = {
  ...verificationComponents,
  ...identityComponents,
  ...sdkComponents,
  ...connectComponents,
  ...twinComponents,
  ...paymentsComponents,
  ...walletComponents,
  ...publicProofComponents,
  ...signalComponents,
  ...worldComponents,
  ...productionComponents,
  ...releasesComponents,
} as const
