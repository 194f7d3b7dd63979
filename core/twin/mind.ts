/**
 * The Twin mind: what the owner's Twin holds (its market mandate, recent intents and promotion
 * decisions) as a signed PNG artifact. The mind's JSON rides in a private `twMd` chunk of a PNG
 * (the Twin's procedural art), and that PNG is sealed as a proof object owned by the Twin's owner
 * (core/proof: the proof in a `caIR` chunk), so any viewer opens it as an image and anyone holding
 * this deployment's proof keys verifies it. Import reads nothing until the seal verifies.
 */
import { concatBytes, utf8, utf8Text } from '../proof/bytes.js'
import { chunksOf } from '../proof/carriers/png.js'
import { crc32 } from '../proof/crc32.js'

export const MIND_CHUNK = 'twMd'
export const MIND_SCHEMA = 'cairn.twin_mind.v1'

export interface TwinMind {
  readonly schema: typeof MIND_SCHEMA
  readonly username: string
  readonly exportedAt: string
  readonly entries: readonly MindEntry[]
}

export type MindEntry =
  | { readonly kind: 'mandate'; readonly value: Record<string, unknown> }
  | { readonly kind: 'intent'; readonly value: Record<string, unknown> }
  | { readonly kind: 'promotion'; readonly value: Record<string, unknown> }

/** `png` with the mind in a `twMd` chunk immediately before IEND. */
export function withMind(png: Uint8Array, mind: TwinMind): Uint8Array {
  const chunks = chunksOf(png)
  if (typeof chunks === 'string') throw new TypeError(chunks)
  const iend = chunks.at(-1)!
  const data = utf8(JSON.stringify(mind))
  const type = utf8(MIND_CHUNK)
  const header = new Uint8Array(8)
  new DataView(header.buffer).setUint32(0, data.length)
  header.set(type, 4)
  const trailer = new Uint8Array(4)
  new DataView(trailer.buffer).setUint32(0, crc32(type, data))
  return concatBytes(png.subarray(0, iend.start), header, data, trailer, png.subarray(iend.start))
}

/** The mind a PNG payload carries, or why it carries none. */
export function mindOf(payload: Uint8Array): { readonly mind: TwinMind } | { readonly error: string } {
  const chunks = chunksOf(payload)
  if (typeof chunks === 'string') return { error: chunks }
  const found = chunks.filter((chunk) => chunk.type === MIND_CHUNK)
  if (found.length !== 1) return { error: found.length === 0 ? 'The image carries no Twin mind' : 'The image carries more than one Twin mind' }
  const text = utf8Text(found[0]!.data)
  let parsed: unknown
  try {
    parsed = text === undefined ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const mind = parsed as TwinMind | undefined
  if (!mind || mind.schema !== MIND_SCHEMA || typeof mind.username !== 'string' || !Array.isArray(mind.entries)) return { error: `The Twin mind is not a ${MIND_SCHEMA} document` }
  return { mind }
}

