/**
 * `GET /api/game/signal-run/cards/{cardId}/share-image`: a PNG a person shares — the card's art
 * framed like a card, its name, sport and collectible id, and the link that verifies it — drawn
 * deterministically from the card's record (pngjs, stored deflate blocks: the same bytes on every
 * machine). Only recorded cards have one.
 */
import * as E from 'fp-ts/lib/Either.js'
import { PNG } from 'pngjs'
import { notFound } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import type { UseCaseFor } from '../usecases/use-case.js'
import { sha256Hex } from '../digest/sha256.js'
import { drawText, textWidth } from './bitmap-font.js'
import { cardRecords } from './card-records.js'
import { cardArt } from './card-art.js'

const WIDTH = 360
const HEIGHT = 504
const ART_TOP = 72
const ART_SCALE = 2

type Rgb = readonly [number, number, number]

/** @example await getCardShareImage({ params: { cardId }, … }, deps) */
export const getCardShareImage: UseCaseFor<'getCardShareImage'> = async (request, deps) => {
  const stored = await cardRecords.get(deps.store, request.params.cardId)
  if (!stored) return E.left(notFound(`No recorded card is ${quoteInput(request.params.cardId)}`))
  const card = stored.value
  const artRecord = (await cardArt.get(deps.store, card.cardId))?.value
  const artBytes = artRecord ? await deps.blobs.get(artRecord.sha256) : deps.images ? (await deps.images.generate({ claimHash: card.claimHash, description: '' })).bytes : undefined
  const { manifest } = card
  const verifyUrl = card.sealCode === null ? deps.config.baseUrl : `${deps.config.baseUrl}/verify/${card.sealCode}`
  const bytes = renderShareImage({ name: manifest.card.name, line: `${manifest.sport} ${manifest.collectibleId}`, verify: verifyUrl.replace(/^https?:\/\//, ''), claimHash: card.claimHash, art: artBytes })
  return E.right({ kind: 'bytes', contentType: 'image/png', bytes, headers: { 'cache-control': 'public, max-age=86400', etag: `"${sha256Hex(bytes)}"` } })
}

interface ShareCard {
  readonly name: string
  readonly line: string
  readonly verify: string
  readonly claimHash: string
  /** The card's art (a PNG), drawn in the frame when present. */
  readonly art: Uint8Array | undefined
}

export function renderShareImage(card: ShareCard): Uint8Array {
  const png = new PNG({ width: WIDTH, height: HEIGHT, colorType: 2, inputColorType: 6, inputHasAlpha: true })
  const hue = (i: number) => parseInt(card.claimHash.slice(i * 2, i * 2 + 2), 16)
  const frame: Rgb = [40 + (hue(0) >> 2), 40 + (hue(1) >> 2), 60 + (hue(2) >> 2)]
  const paper: Rgb = [246, 242, 232]
  const ink: Rgb = [24, 24, 32]
  const set = (x: number, y: number, [r, g, b]: Rgb) => {
    if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) return
    const at = (y * WIDTH + x) * 4
    png.data[at] = r; png.data[at + 1] = g; png.data[at + 2] = b; png.data[at + 3] = 255
  }
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) set(x, y, x < 12 || y < 12 || x >= WIDTH - 12 || y >= HEIGHT - 12 ? frame : paper)
  const centred = (text: string, top: number, scale: number, colour: Rgb) => drawText(fit(text, scale), Math.floor((WIDTH - textWidth(fit(text, scale), scale)) / 2), top, scale, (x, y) => set(x, y, colour))
  centred(card.name, 30, 3, ink)
  const artLeft = Math.floor((WIDTH - 128 * ART_SCALE) / 2)
  for (let y = ART_TOP - 4; y < ART_TOP + 128 * ART_SCALE + 4; y++) for (let x = artLeft - 4; x < artLeft + 128 * ART_SCALE + 4; x++) set(x, y, frame)
  if (card.art) {
    const art = PNG.sync.read(Buffer.from(card.art))
    for (let y = 0; y < 128 * ART_SCALE; y++) {
      for (let x = 0; x < 128 * ART_SCALE; x++) {
        const from = (Math.floor((y * art.height) / (128 * ART_SCALE)) * art.width + Math.floor((x * art.width) / (128 * ART_SCALE))) * 4
        set(artLeft + x, ART_TOP + y, [art.data[from]!, art.data[from + 1]!, art.data[from + 2]!])
      }
    }
  }
  centred(card.line, ART_TOP + 128 * ART_SCALE + 24, 2, ink)
  centred('VERIFY', HEIGHT - 84, 2, frame)
  centred(card.verify, HEIGHT - 58, 1, ink)
  centred(`CLAIM ${card.claimHash.slice(0, 16)}`, HEIGHT - 38, 1, ink)
  return new Uint8Array(PNG.sync.write(png, { colorType: 2, inputColorType: 6, inputHasAlpha: true, deflateLevel: 0, filterType: 0 }))
}

/** `text`, cut with '...' to fit the card's inner width at `scale`. */
function fit(text: string, scale: number): string {
  const room = WIDTH - 40
  if (textWidth(text, scale) <= room) return text
  let cut = text
  while (cut.length > 0 && textWidth(`${cut}...`, scale) > room) cut = cut.slice(0, -1)
  return `${cut}...`
}
