/**
 * The seals collection is typed: records written by sealing read back decoded by code, slug and
 * payload digest; seals stored before `manifest` existed still decode; a corrupt stored seal is
 * reported as the Store's corrupt documents are, through the use case that reads it.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { createSealer } from '../../conformance/proof/sealer.js'
import type { Json } from '../../ports/store.js'
import { CorruptDocumentError } from '../usecases/typed-collection.js'
import { verifyClaim } from './operations/verify-claim.js'
import { PROOF_SEALS, sealByCode, sealBySlug, sealsBySha256 } from './seal-records.js'

const bytes = new TextEncoder().encode('a report')
const owner = { userId: 'usr_ada', username: 'ada' }

describe('the seals collection', () => {
  it('reads back every seal sealing wrote, with and without a manifest, by code, slug and payload digest', async () => {
    const sealer = await createSealer()
    const integrity = await sealer.seal(bytes, 'report.txt', 'text/plain')
    const asset = await sealer.seal(bytes, 'report.txt', 'text/plain', { sealKind: 'proof-object', owner })
    expect(asset.record.manifest?.schema).toBe('cairn.asset_manifest.v1')
    for (const { record } of [integrity, asset]) {
      expect(await sealByCode(sealer.deps, record.code)).toEqual(record)
      expect(await sealBySlug(sealer.deps, record.slug)).toEqual(record)
      // The stored document is the record as it was before the collection was typed.
      expect((await sealer.deps.store.get(PROOF_SEALS, record.code))!.value).toEqual(JSON.parse(JSON.stringify(record)))
    }
    expect(await sealsBySha256(sealer.deps, asset.record.sha256)).toEqual([asset.record, integrity.record])
  })

  it('decodes a seal stored before seals carried a manifest', async () => {
    const sealer = await createSealer()
    const { record } = await sealer.seal(bytes, 'report.txt', 'text/plain', { sealKind: 'proof-object', owner })
    const { manifest: _, ...older } = record
    const code = 'a'.repeat(20)
    await sealer.deps.store.commit([{ kind: 'put', collection: PROOF_SEALS, key: code, value: { ...older, code, slug: 'older-seal' } as Json, expect: { kind: 'absent' } }])
    expect(await sealByCode(sealer.deps, code)).toEqual({ ...older, code, slug: 'older-seal' })
  })

  it('reports a corrupt stored seal as a corrupt document, naming the field, when a claim is verified', async () => {
    const sealer = await createSealer()
    const { record } = await sealer.seal(bytes, 'report.txt', 'text/plain')
    const code = 'b'.repeat(20)
    const corrupt = { ...record, code, slug: 'corrupt-seal', statement: { ...record.statement, sealKind: 'forged' } }
    await sealer.deps.store.commit([{ kind: 'put', collection: PROOF_SEALS, key: code, value: corrupt as Json, expect: { kind: 'absent' } }])
    const verified = verifyClaim({ params: {}, query: {}, body: { code }, principal: { kind: 'anonymous' } }, sealer.deps)
    await expect(verified).rejects.toBeInstanceOf(CorruptDocumentError)
    await expect(verified).rejects.toThrow(`Stored document ${PROOF_SEALS}/${code} does not match its codec at statement.sealKind`)
    // The healthy seal is still found.
    const found = await verifyClaim({ params: {}, query: {}, body: { code: record.code }, principal: { kind: 'anonymous' } }, sealer.deps)
    expect(E.isRight(found) && found.right.kind === 'json').toBe(true)
  })
})
