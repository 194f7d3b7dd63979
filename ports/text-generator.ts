/**
 * Generates text for metered Creator runs and Live Twin replies. The default adapter is built in and
 * deterministic (everything runs offline); the OpenAI-compatible adapter talks to any server that
 * speaks the Chat Completions wire format (a hosted API, llama.cpp, vLLM, Ollama).
 */

export interface TextGenerationRequest {
  /** Instructions the model follows (the Creator's or the Twin's persona). */
  readonly system: string
  readonly prompt: string
  /** Upper bound on generated tokens. */
  readonly maxTokens: number
  /** A stable pseudonymous id of the end user, for the provider's abuse monitoring. */
  readonly user?: string
}

export interface TextUsage {
  readonly model: string
  readonly inputTokens: number
  readonly outputTokens: number
}

export interface GeneratedText extends TextUsage {
  readonly text: string
}

/** Pieces of a streamed generation: deltas in order, then one `done` with the usage. */
export type TextChunk = { readonly kind: 'delta'; readonly text: string } | ({ readonly kind: 'done' } & TextUsage)

export interface TextGenerator {
  /** The adapter's name, as configuration and logs spell it. */
  readonly name: string
  generate(request: TextGenerationRequest, signal?: AbortSignal): Promise<GeneratedText>
  /** The same generation, incrementally; stops when `signal` aborts (a client that went away). */
  stream(request: TextGenerationRequest, signal?: AbortSignal): AsyncIterable<TextChunk>
}
