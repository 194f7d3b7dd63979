/**
 * Journey 5, the lawful economy: the operator funds a law's owner (`cairn value issue --server`
 * with the operator token), she reserves Φ, registers a law from a sealed proof object, and seals
 * a lawful action naming a carer as custodian; the carer's application admits it and derives a
 * value head, and the settlement shows in the public wallet ledger. Over HTTP and the CLI only,
 * on `cairn serve --data-dir` with a deployment file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalJsonBytes } from '../core/digest/canonical-json.js'
import { LAW_SCHEMA, LAWFUL_ACTION_SCHEMA } from '../core/lawful/index.js'
import { kaiMomentAt } from '../core/time/kai.js'
import { sha256Hex, sha256OfJson } from '../core/digest/sha256.js'
import { applicationToken, call, expectConserved, phiBalance, publicWalletLedger, registeredApplication, runCli, signIn, startJourneyServer, type JourneyApplication, type JourneyServer, type Person } from './journey-server.js'
import { identityHolder, openAuthoritySession } from './authority-session.js'

const APP = 'com.example.care'
/** The care app: a confidential client whose tokens come from its own code + PKCE flow. */
const CARE: JourneyApplication = { clientId: APP, secret: 'care-journey-secret', redirectUri: 'https://care.example/callback' }
const OPERATOR_TOKEN = 'op_journey_lawful_economy_token_0123456789'
let server: JourneyServer
beforeAll(async () => {
  server = await startJourneyServer({ clients: [registeredApplication(CARE, 'Care')], operator: { tokenSha256: sha256Hex(OPERATOR_TOKEN) } })
}, 60_000)
afterAll(async () => server?.stop())

/** Seals a payload's RFC 8785 JSON as the person's own proof object, as the law's tooling would. */
async function sealJson(person: Person, payload: unknown): Promise<{ exactBytesB64u: string; filename: string; mimeType: string }> {
  const form = new FormData()
  form.append('file', new Blob([canonicalJsonBytes(payload) as Uint8Array<ArrayBuffer>], { type: 'application/json' }), 'lawful.json')
  const sealed = await fetch(`${server.url}/api/sdk/v1/assets/seal`, { method: 'POST', body: form, headers: { cookie: person.cookie } })
  expect(sealed.status).toBe(200)
  return { exactBytesB64u: ((await sealed.json()) as { sealedBytesB64u: string }).sealedBytesB64u, filename: 'lawful.json', mimeType: 'application/json' }
}

describe('journey 5: a law pays its custodian by the pulse, and the settlement is public', () => {
  it('register a law from a sealed proof object → admit → derive a value head → the settlement in the public wallet ledger', async () => {
    const [ada, bob] = [await signIn(server, 'ada'), await signIn(server, 'bob')]
    const adaToken = await applicationToken(server, ada, ['cairn:lawful.write', 'cairn:value.execute', 'cairn:runtime.session', 'cairn:wallet.read'], CARE)
    const bobToken = await applicationToken(server, bob, ['cairn:lawful.write', 'cairn:wallet.read'], CARE)
    // Value moves only under ada's open authority session in which she consented to value execution.
    const { sessionBindingDigest } = await openAuthoritySession(server, await identityHolder(server, ada), adaToken, APP, ['cairn:value.execute'])

    const issued = await runCli(['value', 'issue', '--user', 'ada', '--phi', '1', '--key', 'care-fund', '--server', server.url], { CAIRN_OPERATOR_TOKEN: OPERATOR_TOKEN })
    expect(issued).toMatchObject({ code: 0, stdout: expect.stringContaining('Issued 1 Φ to ada') })
    const reserved = await call(server, 'POST', '/api/sdk/v1/value/reserve/execute', {
      token: adaToken, body: { intent: { schema: 'cairn.value.reserve.v1', idempotencyKey: 'care-reserve', amountPhiMicro: '500000' }, authorityDigest: sessionBindingDigest },
    })
    expect(reserved).toMatchObject({ status: 200, body: { ok: true, status: 'committed' } })

    const law = { schema: LAW_SCHEMA, lawId: 'care-hours', title: 'Care work, paid by the pulse', ratePhiMicroPerPulse: '7', maxPulsesPerAction: 10_000 }
    const lawDigest = sha256OfJson(law)
    const registered = await call(server, 'POST', '/api/sdk/v1/lawful-actions/laws/register', { token: adaToken, body: { proofObject: await sealJson(ada, law), idempotencyKey: 'law' } })
    expect(registered).toMatchObject({ status: 200, body: { action: 'law-registered' } })

    // The visit began 30 pulses ago and runs 60 pulses; ada seals it naming bob as custodian.
    const start = kaiMomentAt(Date.now()).pulse - 30
    const action = { schema: LAWFUL_ACTION_SCHEMA, lawDigest, actionId: 'visit-1', priorAdmissionDigest: null, startedAtKaiPulse: start, completedAtKaiPulse: start + 60, custodianUserId: bob.userId }
    const admitted = await call(server, 'POST', '/api/sdk/v1/lawful-actions/admit', {
      token: bobToken, body: { lawDigest, proofObject: await sealJson(ada, action), expectedPriorAdmissionDigest: null, idempotencyKey: 'admit' },
    })
    expect(admitted).toMatchObject({ status: 200, body: { admissionDigest: sha256OfJson(action) } })

    const derived = await call(server, 'POST', '/api/sdk/v1/lawful-actions/value-head/derive', {
      token: bobToken, body: { membershipId: admitted.body.admissionDigest, expectedPriorValueHeadDigest: null },
    })
    expect(derived).toMatchObject({ status: 200, body: { action: 'value-head-derived', valueHeadDigest: expect.stringMatching(/^[0-9a-f]{64}$/) } })
    const paid = await phiBalance(server, bobToken)
    // 7 µΦ for each pulse from the start up to now (at least the 30 that had passed).
    expect(paid % 7n).toBe(0n)
    expect(paid).toBeGreaterThanOrEqual(7n * 30n)
    expect(paid).toBeLessThanOrEqual(7n * 60n)

    const { events, rollup } = await publicWalletLedger(server)
    expect(events.map((event) => event.kind)).toEqual(['issuance', 'settlement'])
    expect(events[1]).toMatchObject({ amountPhiMicro: String(paid), amountUsdCents: '0', fromActor: events[0].toActor })
    expect(rollup).toMatchObject({ totalIssuanceEvents: '1', totalSettlementEvents: '1' })

    // Conservation: ada's wallet, her reserve (what she set aside less what the law paid) and bob's wallet hold exactly the 1 Φ that entered.
    const adaWallet = await phiBalance(server, adaToken)
    expect(adaWallet).toBe(500_000n)
    await expectConserved(server, [adaWallet, 500_000n - paid, paid])
  }, 120_000)
})
