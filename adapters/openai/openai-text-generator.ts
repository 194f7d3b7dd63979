/**
 * TextGenerator on the official `openai` SDK, for any server that speaks the Chat Completions wire
 * format: a hosted API, or a local llama.cpp / vLLM / Ollama endpoint (`baseUrl`). The API key comes
 * from the environment, never from a file in the repository. Provider failures surface as
 * PortUnavailableError, so a metered operation answers 503 and spends nothing.
 */
import type OpenAI from 'openai'
import { loadOptionalPackage } from '../shared/optional-package.js'
import { PortUnavailableError } from '../../ports/errors.js'
import type { GeneratedText, TextChunk, TextGenerationRequest, TextGenerator } from '../../ports/text-generator.js'

export const OPENAI_TEXT_GENERATOR_NAME = 'openai'
const PORT = 'TextGenerator'

export interface OpenAiTextGeneratorOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:8080/v1` (llama.cpp). */
  readonly baseUrl: string
  readonly model: string
  /** @default process.env.CAIRN_OPENAI_API_KEY ?? process.env.OPENAI_API_KEY ?? 'none' (local servers need none) */
  readonly apiKey?: string
  /** @default 60000 */
  readonly timeoutMs?: number
  /** Retries of transient failures by the SDK. @default 2 */
  readonly maxRetries?: number
}

/**
 * @example
 * const text = new OpenAiTextGenerator({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' })
 * await text.generate({ system: 'You are helpful.', prompt: 'Hi', maxTokens: 100 })
 */
export class OpenAiTextGenerator implements TextGenerator {
  readonly name = OPENAI_TEXT_GENERATOR_NAME
  /** The SDK is an optional peer dependency, loaded on the first generation. */
  private client: Promise<OpenAI> | undefined

  constructor(private readonly options: OpenAiTextGeneratorOptions) {}

  private sdk(): Promise<OpenAI> {
    this.client ??= loadOptionalPackage('openai', 'The text generator "openai"', () => import('openai')).then(({ default: OpenAISdk }) => (loadedApiError = OpenAISdk.APIError, new OpenAISdk({
      apiKey: this.options.apiKey ?? process.env.CAIRN_OPENAI_API_KEY ?? process.env.OPENAI_API_KEY ?? 'none',
      baseURL: this.options.baseUrl,
      timeout: this.options.timeoutMs ?? 60_000,
      maxRetries: this.options.maxRetries ?? 2,
    })))
    return this.client
  }

  async generate(request: TextGenerationRequest, signal?: AbortSignal): Promise<GeneratedText> {
    const client = await this.sdk()
    const completion = await this.calling(() =>
      client.chat.completions.create({ model: this.options.model, messages: messagesOf(request), max_tokens: request.maxTokens, ...userOf(request) }, signal ? { signal } : {}),
    )
    const text = completion.choices[0]?.message.content
    if (typeof text !== 'string') throw new PortUnavailableError(PORT, 'The text generator answered without text')
    return { text, model: completion.model, inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 }
  }

  async *stream(request: TextGenerationRequest, signal?: AbortSignal): AsyncIterable<TextChunk> {
    const client = await this.sdk()
    const chunks = await this.calling(() =>
      client.chat.completions.create(
        { model: this.options.model, messages: messagesOf(request), max_tokens: request.maxTokens, stream: true, stream_options: { include_usage: true }, ...userOf(request) },
        signal ? { signal } : {},
      ),
    )
    let model = this.options.model
    let usage = { inputTokens: 0, outputTokens: 0 }
    try {
      for await (const chunk of chunks) {
        model = chunk.model || model
        const text = chunk.choices[0]?.delta?.content
        if (text) yield { kind: 'delta', text }
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens }
      }
    } catch (error) {
      throw unavailable(error)
    }
    yield { kind: 'done', model, ...usage }
  }

  private async calling<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      throw unavailable(error)
    }
  }
}

const messagesOf = (request: TextGenerationRequest) => [
  { role: 'system' as const, content: request.system },
  { role: 'user' as const, content: request.prompt },
]
const userOf = (request: TextGenerationRequest) => (request.user ? { user: request.user } : {})

/** The SDK's error class once loaded (it carries the HTTP status, undefined when no answer came). */
let loadedApiError: typeof OpenAI.APIError | undefined

function unavailable(error: unknown): Error {
  if (error instanceof Error && error.name === 'AbortError') return error
  const status = loadedApiError && error instanceof loadedApiError ? ` (HTTP ${error.status ?? 'no answer'})` : ''
  return new PortUnavailableError(PORT, `The text generator failed${status}`, { cause: error })
}
