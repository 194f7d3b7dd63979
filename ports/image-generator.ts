/**
 * Draws card art. The default adapter is built in and deterministic: procedural art from the claim
 * hash, the same PNG bytes on every machine, offline. An external generator (a model behind an API)
 * can take its place; whatever it draws is stored, so a card's art never changes once made.
 */

export interface ImageRequest {
  /** The card's claim hash (64 hex digits): what the art is bound to, and the deterministic seed. */
  readonly claimHash: string
  /** A description for generators that take one (the card's name, sport and team). */
  readonly description: string
}

export interface GeneratedImage {
  readonly bytes: Uint8Array
  readonly mediaType: string
  readonly width: number
  readonly height: number
  /** Which generator and version drew it, as stored with the art. */
  readonly generator: string
}

export interface ImageGenerator {
  generate(request: ImageRequest): Promise<GeneratedImage>
}
