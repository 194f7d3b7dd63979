/**
 * The built-in TextGenerator: the same request gives the same text on every machine, with no model
 * and no network, so Creator runs and Twin replies work on a fresh install and in tests. The text
 * is honest about what it is: it names the generator and restates the prompt's size and digest.
 */
import { createHash } from 'node:crypto'
import type { GeneratedText, TextChunk, TextGenerationRequest, TextGenerator } from '../../ports/text-generator.js'

export const DETERMINISTIC_TEXT_GENERATOR_NAME = 'builtin'
const MODEL = 'cairn-deterministic-1'

const VOCABULARY = [
  'cairn', 'stone', 'ridge', 'signal', 'proof', 'ledger', 'river', 'lantern', 'harbor', 'meadow', 'summit', 'compass',
  'archive', 'beacon', 'orchard', 'quarry', 'thread', 'anchor', 'canvas', 'circuit', 'garden', 'horizon', 'marker', 'trail',
] as const

const wordsOf = (text: string): number => text.split(/\s+/).filter(Boolean).length

/** @example await new DeterministicTextGenerator().generate({ system: 'You are a Twin.', prompt: 'Hello', maxTokens: 64 }) */
export class DeterministicTextGenerator implements TextGenerator {
  readonly name = DETERMINISTIC_TEXT_GENERATOR_NAME

  async generate(request: TextGenerationRequest, signal?: AbortSignal): Promise<GeneratedText> {
    let text = ''
    let usage: GeneratedText | undefined
    for await (const chunk of this.stream(request, signal)) {
      if (chunk.kind === 'delta') text += chunk.text
      else usage = { model: chunk.model, inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens, text }
    }
    return usage!
  }

  async *stream(request: TextGenerationRequest, signal?: AbortSignal): AsyncIterable<TextChunk> {
    const digest = createHash('sha256').update(`${request.system}\u0000${request.prompt}`).digest()
    const budget = Math.max(1, Math.min(request.maxTokens, 48))
    const words = Array.from({ length: Math.min(budget, 12 + (digest[0]! % 12)) }, (_, i) => VOCABULARY[digest[i % digest.length]! % VOCABULARY.length]!)
    const opening = `[${MODEL}] ${wordsOf(request.prompt)} words received (sha256 ${digest.toString('hex').slice(0, 12)}).`
    const pieces = [opening, ...words.map((word, i) => ` ${i === 0 ? word[0]!.toUpperCase() + word.slice(1) : word}`), '.']
    for (const text of pieces) {
      signal?.throwIfAborted()
      yield { kind: 'delta', text }
    }
    yield { kind: 'done', model: MODEL, inputTokens: wordsOf(request.system) + wordsOf(request.prompt), outputTokens: wordsOf(pieces.join('')) }
  }
}
