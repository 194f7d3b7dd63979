/** The built-in card art: a real PNG, the same bytes for the same claim hash (golden), different art for different hashes. */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { ProceduralArtGenerator } from './procedural-art.js'

const CLAIM = '5a5c182795c0fc3578eee62f498f5f8347e5299c8a7e1813f9299b1c10e7857f'
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('ProceduralArtGenerator', () => {
  it('draws a 128×128 PNG that decodes, identical for the same claim hash (golden digest)', async () => {
    const generator = new ProceduralArtGenerator()
    const art = await generator.generate({ claimHash: CLAIM, description: 'Mickey Mantle' })
    expect(art).toMatchObject({ mediaType: 'image/png', width: 128, height: 128, generator: 'procedural-art/1' })
    const decoded = PNG.sync.read(Buffer.from(art.bytes))
    expect([decoded.width, decoded.height]).toEqual([128, 128])
    expect(sha256((await generator.generate({ claimHash: CLAIM, description: 'other words, same art' })).bytes)).toBe(sha256(art.bytes))
    expect(sha256(art.bytes)).toBe('e89a039f6a870b7d4c1844704e9dac65449c36ae4bb02d6678c5fa93088cddad')
    writeFileSync(join(tmpdir(), 'cairn-card-art.png'), art.bytes) // to look at
  })

  it('draws different art for another claim hash and refuses a malformed one', async () => {
    const generator = new ProceduralArtGenerator()
    const a = await generator.generate({ claimHash: CLAIM, description: '' })
    const b = await generator.generate({ claimHash: '3853ec072b5c58f54678d0392d5539e8cb227d782995f5fb0c63eff3b13c9c35', description: '' })
    expect(sha256(a.bytes)).not.toBe(sha256(b.bytes))
    await expect(generator.generate({ claimHash: 'zz', description: '' })).rejects.toThrow(/64 lowercase hex/)
  })
})
