/**
 * The built-in ImageGenerator: procedural card art drawn from the claim hash with pngjs — a
 * two-colour gradient and concentric rings whose colours, centre and spacing come from the hash's
 * bytes. Written uncompressed (stored deflate blocks), so the bytes do not depend on the zlib build:
 * the same claim hash gives the same PNG on every machine.
 */
import { PNG } from 'pngjs'
import type { GeneratedImage, ImageGenerator, ImageRequest } from '../../ports/image-generator.js'

export const PROCEDURAL_ART_GENERATOR = 'procedural-art/1'
const SIZE = 128

export class ProceduralArtGenerator implements ImageGenerator {
  async generate(request: ImageRequest): Promise<GeneratedImage> {
    if (!/^[0-9a-f]{64}$/.test(request.claimHash)) throw new TypeError('A claim hash is 64 lowercase hex characters')
    const byte = (i: number) => parseInt(request.claimHash.slice(i * 2, i * 2 + 2), 16)
    const from = [byte(0), byte(1), byte(2)]
    const to = [byte(3), byte(4), byte(5)]
    const ring = [255 - byte(6), 255 - byte(7), 255 - byte(8)]
    const centre = { x: 32 + (byte(9) % 64), y: 32 + (byte(10) % 64) }
    const spacing = 6 + (byte(11) % 10)
    const png = new PNG({ width: SIZE, height: SIZE, colorType: 2, inputColorType: 6, inputHasAlpha: true })
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        const at = (y * SIZE + x) * 4
        const distance = Math.floor(Math.hypot(x - centre.x, y - centre.y))
        const onRing = distance % spacing < 2
        for (let c = 0; c < 3; c++) png.data[at + c] = onRing ? ring[c]! : Math.floor((from[c]! * (SIZE - 1 - y) + to[c]! * y) / (SIZE - 1))
        png.data[at + 3] = 255
      }
    }
    const bytes = PNG.sync.write(png, { colorType: 2, inputColorType: 6, inputHasAlpha: true, deflateLevel: 0, filterType: 0 })
    return { bytes: new Uint8Array(bytes), mediaType: 'image/png', width: SIZE, height: SIZE, generator: PROCEDURAL_ART_GENERATOR }
  }
}
