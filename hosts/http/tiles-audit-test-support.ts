/**
 * Test support: an independent tiles client written from the C2SP specs alone (node:crypto
 * hashing, its own tile arithmetic). It verifies the checkpoint signature with the published
 * verifier key, rebuilds every leaf hash from the entry bundles, checks each tile level against
 * the one below, recomputes the RFC 9162 root and checks cache headers; it answers the tree size
 * and every entry, parsed.
 */
import { createHash, createPublicKey, verify } from 'node:crypto'
import { expect } from 'vitest'

const sha256 = (...parts: Uint8Array[]) => new Uint8Array(createHash('sha256').update(Buffer.concat(parts)).digest())
const node = (l: Uint8Array, r: Uint8Array) => sha256(new Uint8Array([1]), l, r)

/** The tiles client: fetches through `get`, trusts only the verifier key. */
export async function auditTiles(get: (path: string) => Promise<Response>, verifierKey: string) {
  // name+keyid+base64 key (the key itself may contain '+').
  const [, name, keyB64] = /^([^+]+)\+[0-9a-f]{8}\+(.+)$/.exec(verifierKey) as unknown as [string, string, string]
  const publicKey = Buffer.from(keyB64, 'base64').subarray(1)
  const note = await (await get('/log/checkpoint')).text()
  const [text, sigLine] = note.split('\n\n') as [string, string]
  const signature = Buffer.from(sigLine.replace(`— ${name} `, '').trim(), 'base64').subarray(4)
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') }, format: 'jwk' })
  expect(verify(null, Buffer.from(`${text}\n`), key, signature)).toBe(true)
  const [origin, sizeText, rootText] = text.split('\n') as [string, string, string]
  expect(origin).toBe(name)
  const size = Number(sizeText)
  const index = (n: number) => {
    const groups = []
    do groups.unshift(String(n % 1000).padStart(3, '0'))
    while ((n = Math.floor(n / 1000)) > 0)
    return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/')
  }
  const tile = async (level: string, n: number, width: number) => {
    const response = await get(`/log/tile/${level}/${index(n)}${width < 256 ? `.p/${width}` : ''}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('cache-control')).toContain('immutable')
    return new Uint8Array(await response.arrayBuffer())
  }
  // Level by level: leaf hashes from entry bundles, then each level from the full tiles below.
  let hashes: Uint8Array[] = []
  const entries: Uint8Array[] = []
  for (let n = 0; n * 256 < size; n++) {
    const bundle = await tile('entries', n, Math.min(256, size - n * 256))
    for (let at = 0; at < bundle.length; ) {
      const length = (bundle[at]! << 8) | bundle[at + 1]!
      entries.push(bundle.subarray(at + 2, at + 2 + length))
      at += 2 + length
    }
  }
  expect(entries.length).toBe(size)
  hashes = entries.map((entry) => sha256(new Uint8Array([0]), entry))
  const levels: Uint8Array[][] = []
  for (let level = 0; hashes.length > 0; level++) {
    levels.push(hashes)
    const next: Uint8Array[] = []
    for (let n = 0; n * 256 < hashes.length; n++) {
      const width = Math.min(256, hashes.length - n * 256)
      const served = await tile(String(level), n, width)
      expect(Buffer.from(served).equals(Buffer.concat(hashes.slice(n * 256, n * 256 + width)))).toBe(true)
      if (width === 256) {
        let row = hashes.slice(n * 256, n * 256 + 256)
        while (row.length > 1) row = Array.from({ length: row.length / 2 }, (_, i) => node(row[2 * i]!, row[2 * i + 1]!))
        next.push(row[0]!)
      }
    }
    hashes = next
  }
  // RFC 9162 root from the leaf hashes.
  const mth = (leaves: Uint8Array[]): Uint8Array => {
    if (leaves.length === 0) return sha256()
    if (leaves.length === 1) return leaves[0]!
    let k = 1
    while (k * 2 < leaves.length) k *= 2
    return node(mth(leaves.slice(0, k)), mth(leaves.slice(k)))
  }
  expect(Buffer.from(mth(levels[0] ?? [])).toString('base64')).toBe(rootText)
  return { size, checkpoint: note, entries: entries.map((entry) => JSON.parse(Buffer.from(entry).toString('utf8')) as Record<string, unknown>) }
}
