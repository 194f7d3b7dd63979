/**
 * A 5×7 bitmap font for the share image's text: uppercase letters, digits and the punctuation a
 * card's name and verify link need. Each glyph is seven rows of five bits, most significant bit on
 * the left. Characters without a glyph draw as a small box, so nothing is silently dropped.
 */
const GLYPHS: Readonly<Record<string, readonly number[]>> = {
  A: [14, 17, 17, 31, 17, 17, 17], B: [30, 17, 17, 30, 17, 17, 30], C: [14, 17, 16, 16, 16, 17, 14], D: [30, 17, 17, 17, 17, 17, 30],
  E: [31, 16, 16, 30, 16, 16, 31], F: [31, 16, 16, 30, 16, 16, 16], G: [14, 17, 16, 23, 17, 17, 15], H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14], J: [7, 2, 2, 2, 2, 18, 12], K: [17, 18, 20, 24, 20, 18, 17], L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17], N: [17, 17, 25, 21, 19, 17, 17], O: [14, 17, 17, 17, 17, 17, 14], P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13], R: [30, 17, 17, 30, 20, 18, 17], S: [15, 16, 16, 14, 1, 1, 30], T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14], V: [17, 17, 17, 17, 17, 10, 4], W: [17, 17, 17, 21, 21, 21, 10], X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4], Z: [31, 1, 2, 4, 8, 16, 31],
  '0': [14, 17, 19, 21, 25, 17, 14], '1': [4, 12, 4, 4, 4, 4, 14], '2': [14, 17, 1, 2, 4, 8, 31], '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2], '5': [31, 16, 30, 1, 1, 17, 14], '6': [6, 8, 16, 30, 17, 17, 14], '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14], '9': [14, 17, 17, 15, 1, 2, 12],
  ' ': [0, 0, 0, 0, 0, 0, 0], '.': [0, 0, 0, 0, 0, 12, 12], ':': [0, 12, 12, 0, 12, 12, 0], '/': [1, 1, 2, 4, 8, 16, 16],
  '-': [0, 0, 0, 31, 0, 0, 0], '_': [0, 0, 0, 0, 0, 0, 31], "'": [4, 4, 8, 0, 0, 0, 0], '#': [10, 10, 31, 10, 31, 10, 10],
}
const MISSING = [31, 17, 17, 17, 17, 17, 31]

export const GLYPH_WIDTH = 5
export const GLYPH_HEIGHT = 7

/** Calls `plot(x, y)` for every lit pixel of `text` at `scale`, one blank column between glyphs. */
export function drawText(text: string, left: number, top: number, scale: number, plot: (x: number, y: number) => void): void {
  let x = left
  for (const char of text.toUpperCase()) {
    const rows = GLYPHS[char] ?? MISSING
    rows.forEach((bits, row) => {
      for (let column = 0; column < GLYPH_WIDTH; column++) {
        if (!(bits & (1 << (GLYPH_WIDTH - 1 - column)))) continue
        for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) plot(x + column * scale + dx, top + row * scale + dy)
      }
    })
    x += (GLYPH_WIDTH + 1) * scale
  }
}

/** Width in pixels of `text` drawn at `scale`. */
export const textWidth = (text: string, scale: number) => [...text].length * (GLYPH_WIDTH + 1) * scale - scale
