/**
 * The trust a fresh deployment publishes before it has sealed anything (the README's quick start
 * pins it first) already holds the key its seals are signed with.
 */
import { describe, expect, it } from 'vitest'
import { MemoryKeyStore } from '../../adapters/memory/index.js'
import { createSealer } from '../../conformance/proof/sealer.js'
import { nodeVerifyOptions } from './node-digest.js'
import { PROOF_SIGNING_ALG } from './seal-artifact.js'
import { serviceTrust } from './service-trust.js'
import { verifyArtifact } from './verify.js'

describe('serviceTrust', () => {
  it('publishes, before the first seal, the proof key that seal is signed with', async () => {
    // createSealer reads the trust right away, on a key store that has made no key yet.
    const sealer = await createSealer({ keys: new MemoryKeyStore() })
    expect(sealer.trust.proofKeys.map((key) => key.kid)).toEqual([(await sealer.deps.keys.current(PROOF_SIGNING_ALG, 'proof')).kid])
    const sealed = await sealer.seal(new TextEncoder().encode('the first file'), 'first.txt', 'text/plain')
    expect(await verifyArtifact(sealed.bytes, sealer.trust, nodeVerifyOptions)).toMatchObject({ ok: true, errors: [] })
  })

  it('answers the same trust when asked again', async () => {
    const sealer = await createSealer({ keys: new MemoryKeyStore() })
    expect(await serviceTrust(sealer.deps)).toEqual(sealer.trust)
  })
})
