import { beforeEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { withFaults } from '../../conformance/fault-injection.js'
import { createValueUser, valueBearer } from '../../conformance/support/value-users.js'
import { memoryDeps, type MemoryDeps } from '../../hosts/http/describe-env.js'
import { serviceTrust } from '../proof/service-trust.js'
import { verifyArtifact } from '../proof/verify.js'
import { collections } from '../usecases/collections.js'
import type { CoreDeps, OperationRequest, Reply, UseCase } from '../usecases/use-case.js'
import { issueValue, trialBalance, valueNotes, valueUseCases } from './index.js'

let deps: MemoryDeps
let ada: string
let bob: string

beforeEach(async () => {
  deps = memoryDeps({ baseUrl: 'https://cairn.notes.test' })
  await deps.store.declare(collections)
  ada = await createValueUser(deps.store, 'ada')
  bob = await createValueUser(deps.store, 'bob')
  await issueValue(deps, { userId: ada, unit: 'phi', amount: '1000', idempotencyKey: 'seed' })
})

const run = (op: keyof typeof valueUseCases, userId: string | null, body: unknown = undefined, extra: Partial<OperationRequest> = {}, via: CoreDeps = deps) =>
  (valueUseCases[op] as unknown as UseCase)({ params: {}, query: {}, body, principal: userId ? valueBearer(userId) : { kind: 'anonymous' }, ...extra }, via)
const bodyOf = (reply: E.Either<unknown, Reply>) => {
  if (E.isLeft(reply)) throw new Error(`refused: ${JSON.stringify(reply.left)}`)
  return (reply.right as { body: any }).body
}
const tagOf = (reply: E.Either<{ _tag: string }, Reply>) => (E.isLeft(reply) ? reply.left._tag : 'ok')
const balance = async (userId: string, unit = 'phi') => bodyOf(await run('getConnectWallet', userId)).wallet[unit === 'phi' ? 'balancePhiMicro' : 'balanceUsdCents']
async function mintAndDownload(amount: string, extra: Record<string, unknown> = {}, via: CoreDeps = deps, owner = ada): Promise<{ noteId: string; b64u: string; minted: any }> {
  const minted = bodyOf(await run('mintWalletNote', owner, { unit: 'phi', amount, ...extra }, {}, via))
  const download = bodyOf(await run('downloadWalletNote', owner, undefined, { params: { noteId: minted.note.noteId } }, via))
  return { noteId: minted.note.noteId, b64u: download.exactBytesB64u, minted }
}
async function expectConserved() {
  const trial = await trialBalance(deps)
  expect(trial.sums).toEqual({ phi: 0n, usd: 0n })
  expect(trial.negative).toEqual([])
}

describe('offline payment notes', () => {
  it('minting subtracts from the wallet and yields sealed bytes that verify offline; the owner alone downloads them', async () => {
    const { noteId, b64u, minted } = await mintAndDownload('300')
    expect(minted).toMatchObject({ ok: true, note: { status: 'minted', amountPhiMicro: '300', amountUsdCents: '0', downloadPath: `/api/connect/payments/notes/${noteId}/download` }, event: { kind: 'note_mint', amountPhiMicro: '300' } })
    expect(await balance(ada)).toBe('700')
    const bytes = Buffer.from(b64u, 'base64url')
    const verdict = await verifyArtifact(bytes, await serviceTrust(deps))
    expect(verdict).toMatchObject({ ok: true, kind: 'proof-object', errors: [] })
    expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ schema: 'cairn.wallet_note.v1', noteId, amount: '300', unit: 'phi', issuer: 'https://cairn.notes.test' })
    const again = bodyOf(await run('downloadWalletNote', ada, undefined, { params: { noteId } }))
    expect(again.exactBytesB64u).toBe(b64u) // the exact same bytes every time
    expect(tagOf(await run('downloadWalletNote', bob, undefined, { params: { noteId } }))).toBe('NotFound')
    await expectConserved()
  })

  it('a claim credits exactly once; a second claim is 409 and moves nothing', async () => {
    const { b64u } = await mintAndDownload('250')
    const claimed = bodyOf(await run('claimWalletNote', bob, { note: b64u }))
    expect(claimed).toMatchObject({ ok: true, note: { status: 'claimed', claimedAt: expect.any(String) }, event: { kind: 'note_claim', amountPhiMicro: '250', fromActor: 'cairn' } })
    expect(await balance(bob)).toBe('250')
    expect(tagOf(await run('claimWalletNote', bob, { note: b64u }))).toBe('Conflict')
    expect(tagOf(await run('claimWalletNote', ada, { note: b64u }))).toBe('Conflict')
    expect(await balance(bob)).toBe('250')
    await expectConserved()
  })

  it('two claims of one note racing from separate processes: exactly one wins', async () => {
    const { b64u } = await mintAndDownload('100')
    const carol = await createValueUser(deps.store, 'carol')
    const racers = [bob, carol, bob, carol].map((userId) => run('claimWalletNote', userId, { note: b64u }, {}, { ...deps, store: withFaults(deps.store, []) }))
    const outcomes = await Promise.all(racers)
    expect(outcomes.filter(E.isRight)).toHaveLength(1)
    expect(outcomes.filter(E.isLeft).map((o) => o.left._tag)).toEqual(['Conflict', 'Conflict', 'Conflict'])
    expect(BigInt(await balance(bob)) + BigInt(await balance(carol))).toBe(100n)
    await expectConserved()
  })

  it('refuses tampered bytes, another deployment\'s note and garbage, moving nothing', async () => {
    const { b64u } = await mintAndDownload('100')
    const bytes = Buffer.from(b64u, 'base64url')
    const tampered = Buffer.from(bytes.toString('utf8').replace('"amount":"100"', '"amount":"900"'), 'utf8')
    expect(tagOf(await run('claimWalletNote', bob, { note: tampered.toString('base64url') }))).toBe('Unprocessable')
    const other = memoryDeps({ baseUrl: 'https://elsewhere.example', seed: 'elsewhere' })
    await other.store.declare(collections)
    await createValueUser(other.store, 'ada')
    await issueValue(other, { userId: ada, unit: 'phi', amount: '50', idempotencyKey: 's' })
    const foreign = await mintAndDownload('50', {}, other)
    const refused = await run('claimWalletNote', bob, { note: foreign.b64u })
    expect(E.isLeft(refused) && refused.left.message).toContain('another deployment')
    expect(tagOf(await run('claimWalletNote', bob, { note: 'not base64url!' }))).toBe('InvalidInput')
    expect(tagOf(await run('claimWalletNote', bob, { note: Buffer.from('{"a":1}').toString('base64url') }))).toBe('Unprocessable')
    expect(tagOf(await run('claimWalletNote', bob, {}))).toBe('InvalidInput')
    expect(await balance(bob)).toBe('0')
    await expectConserved()
  })

  it('an expired note is refused to others and reclaimable by its minter', async () => {
    const { b64u } = await mintAndDownload('80', { expiresInSeconds: 3600 })
    deps.clock.advance(2 * 60 * 60 * 1000)
    const late = await run('claimWalletNote', bob, { note: b64u })
    expect(E.isLeft(late) && late.left.message).toContain('expired')
    bodyOf(await run('claimWalletNote', ada, { note: b64u }))
    expect(await balance(ada)).toBe('1000')
    await expectConserved()
  })

  it('mint refuses overdrafts and bad input, replays its idempotency key, and the embed claims into a username', async () => {
    expect(tagOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '1001' }))).toBe('Unprocessable')
    expect(tagOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '1.5' }))).toBe('InvalidInput')
    expect(tagOf(await run('mintWalletNote', ada, { unit: 'eur', amount: '1' }))).toBe('InvalidInput')
    expect(tagOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '1', expiresInSeconds: 5 }))).toBe('InvalidInput')
    const first = bodyOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '10', idempotencyKey: 'm-1' }))
    expect(bodyOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '10', idempotencyKey: 'm-1' }))).toEqual(first)
    expect(tagOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '11', idempotencyKey: 'm-1' }))).toBe('Unprocessable')
    expect(await balance(ada)).toBe('990')
    const b64u = bodyOf(await run('downloadWalletNote', ada, undefined, { params: { noteId: first.note.noteId } })).exactBytesB64u
    const embed = bodyOf(await run('claimEmbedNote', null, { targetUsername: 'bob', note: b64u }))
    expect(embed).toMatchObject({ ok: true, targetUsername: 'bob', claimed: [{ status: 'claimed', amountPhiMicro: '10' }], events: [{ kind: 'note_claim' }] })
    expect(tagOf(await run('claimEmbedNote', null, { targetUsername: 'nobody', note: b64u }))).toBe('NotFound')
    await expectConserved()
  })

  it('download completes the sealed bytes when the mint was interrupted after its commit', async () => {
    const faulty = { ...deps, store: withFaults(deps.store, [{ method: 'commit', call: 3, when: 'before' }]) }
    const minted = bodyOf(await run('mintWalletNote', ada, { unit: 'phi', amount: '5' }, {}, faulty))
    const record = (await valueNotes.get(deps.store, minted.note.noteId))!.value
    expect(record.sealedB64u).toBeNull() // the bytes were not stored…
    const download = bodyOf(await run('downloadWalletNote', ada, undefined, { params: { noteId: minted.note.noteId } }))
    expect((await verifyArtifact(Buffer.from(download.exactBytesB64u, 'base64url'), await serviceTrust(deps))).ok).toBe(true) // …and are completed now
    bodyOf(await run('claimWalletNote', bob, { note: download.exactBytesB64u }))
    await expectConserved()
  })
})
