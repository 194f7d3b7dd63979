/**
 * The card market and battles over HTTP, in-process and through a listening server: players sign
 * in with an ID proof, seal card images as their own proof objects, record them, list and read sale
 * terms, and fight a battle with commit–reveal, all with the session cookie the browser would send;
 * refusals are clear 4XX JSON.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { cardImageOf, cardManifestFor } from '../../conformance/support/signal-cards-test-support.js'
import { battleIdOf, commitmentOf } from '../../core/cards/battles/battle-rules.js'
import { signIdContinueRequest } from '../../core/identity/sign-id-proof.js'
import { describeHosts, PINNED_TIME } from './test-support.js'

describeHosts('Signal Run cards over HTTP', ({ request }) => {
  const post = (path: string, body: unknown, cookie: string, method = 'POST') =>
    request(path, { method, headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })

  /** The session cookie, and the user id the answer names (`session.uid`, which battle commitments bind). */
  const userIds = new Map<string, string>()
  async function signIn(username: string): Promise<string> {
    const body = signIdContinueRequest({ username, displayName: username, localUid: `device-${username}` }, {
      privateKey: generateKeyPairSync('ed25519').privateKey, challenge: randomBytes(24), createdAt: new Date(PINNED_TIME).toISOString(), audience: 'http://127.0.0.1:8787',
    })
    const signedIn = await request('/api/auth/cairn-id/continue', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const cookie = /cairn_session=[^;]+/.exec(signedIn.headers.get('set-cookie') ?? '')![0]
    userIds.set(cookie, ((await signedIn.json()) as { session: { uid: string } }).session.uid)
    return cookie
  }

  async function recordCard(cookie: string, seed: number): Promise<string> {
    const image = cardImageOf(seed)
    const form = new FormData()
    form.append('file', new Blob([image as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'card.png')
    const sealed = (await (await request('/api/sdk/v1/assets/seal', { method: 'POST', body: form, headers: { cookie } })).json()) as { sealedBytesB64u: string }
    const recorded = await post('/api/game/signal-run/cards/record', { manifest: cardManifestFor(image, `http-${seed}`), sealedImageB64u: sealed.sealedBytesB64u }, cookie)
    return ((await recorded.json()) as { card: { cardId: string } }).card.cardId
  }

  it('lists a card for sale, fights a battle and refuses what it must, with session cookies', async () => {
    const [sam, bea] = [await signIn('sam'), await signIn('bea')]
    const [samCard, beaCard] = [await recordCard(sam, 21), await recordCard(bea, 22)]

    const listed = await post(`/api/game/signal-run/cards/${samCard}/auction`, { action: 'list', pricePhiMicro: '1500' }, sam)
    expect(listed.status).toBe(200)
    const terms = (await (await request(`/api/game/signal-run/cards/${samCard}/purchase`)).json()) as Record<string, any>
    expect(terms).toMatchObject({ ok: true, forSale: true, sale: { kind: 'sale', pricePhiMicro: '1500' } })
    const broke = await post(`/api/game/signal-run/cards/${samCard}/auction`, { action: 'buy', pricePhiMicro: '1500' }, bea)
    expect(broke.status).toBe(422)
    expect(await broke.json()).toMatchObject({ ok: false, error: expect.stringContaining('balance') })
    const anonymous = await request(`/api/game/signal-run/cards/${samCard}/auction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'cancel' }) })
    expect(anonymous.status).toBe(401)

    const seed = 'http-challenger-seed-0000001'
    const beaId = userIds.get(bea)!
    const seedCommitment = commitmentOf({ battleId: battleIdOf(beaId, 'http-battle-1'), challengerUserId: beaId, seed })
    const requested = await post('/api/game/signal-run/cards/battle-request', { challengerCardId: beaCard, opponentCardId: samCard, stake: 'fun', requestId: 'http-battle-1', seedCommitment }, bea)
    expect(requested.status).toBe(200)
    const { battle } = (await requested.json()) as { battle: { battleId: string } }
    const queue = (await (await request('/api/game/signal-run/cards/battle-request', { headers: { cookie: sam } })).json()) as { incoming: { battleId: string }[] }
    expect(queue.incoming.map((b) => b.battleId)).toEqual([battle.battleId])
    expect((await post('/api/game/signal-run/cards/battle-request', { battleId: battle.battleId, action: 'accept', seed: 'http-opponent-seed-0000001' }, sam, 'PATCH')).status).toBe(200)
    const revealed = await post('/api/game/signal-run/cards/battle-request', { battleId: battle.battleId, action: 'reveal', seed }, bea, 'PATCH')
    expect(await revealed.json()).toMatchObject({ ok: true, battle: { status: 'settled', replay: { rules: 'signal-circuit/1' } } })
    expect((await request('/api/game/signal-run/cards/battle-request')).status).toBe(401)
    expect((await post('/api/game/signal-run/cards/battle-settings', { cardId: samCard, twinDefense: 'yes' }, sam)).status).toBe(400)
    expect(await (await post('/api/game/signal-run/cards/battle-settings', { cardId: samCard, twinDefense: true }, sam)).json()).toEqual({ ok: true, cardId: samCard, twinDefense: true })
  })
})
