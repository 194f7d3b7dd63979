/**
 * The OpenAI-compatible adapter, driven by the official SDK against a local stub on 127.0.0.1 that
 * speaks the Chat Completions wire format (JSON and server-sent-event streaming), as llama.cpp,
 * vLLM and Ollama do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PortUnavailableError } from '../../ports/errors.js'
import { OpenAiTextGenerator } from './openai-text-generator.js'
import { startChatCompletionsStub, type ChatCompletionsStub } from './chat-completions-stub-test-support.js'

let stub: ChatCompletionsStub
let baseUrl: string
beforeAll(async () => {
  stub = await startChatCompletionsStub()
  baseUrl = stub.baseUrl
})
afterAll(() => stub.close())

const request = { system: 'You are a Twin.', prompt: 'Say hello', maxTokens: 32, user: 'pseudonym-1' }

describe('OpenAiTextGenerator', () => {
  it('sends a Chat Completions request with the key from options and answers the text and usage', async () => {
    const generator = new OpenAiTextGenerator({ baseUrl, model: 'stub-model', apiKey: 'sk-test', maxRetries: 0 })
    expect(await generator.generate(request)).toEqual({ text: 'Hello from the stub', model: 'stub-model', inputTokens: 7, outputTokens: 4 })
    expect(stub.seen.at(-1)).toEqual({
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-test',
      body: { model: 'stub-model', max_tokens: 32, user: 'pseudonym-1', messages: [{ role: 'system', content: 'You are a Twin.' }, { role: 'user', content: 'Say hello' }] },
    })
  })

  it('streams deltas in order, then the usage', async () => {
    const generator = new OpenAiTextGenerator({ baseUrl, model: 'stub-model', apiKey: 'sk-test', maxRetries: 0 })
    const chunks = []
    for await (const chunk of generator.stream(request)) chunks.push(chunk)
    expect(chunks).toEqual([
      { kind: 'delta', text: 'Hello' }, { kind: 'delta', text: ' from' }, { kind: 'delta', text: ' the' }, { kind: 'delta', text: ' stub' },
      { kind: 'done', model: 'stub-model', inputTokens: 7, outputTokens: 4 },
    ])
    expect(stub.seen.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
  })

  it('turns a provider failure into PortUnavailableError (the operation answers 503 and spends nothing)', async () => {
    stub.failNext()
    const generator = new OpenAiTextGenerator({ baseUrl, model: 'stub-model', apiKey: 'sk-test', maxRetries: 0 })
    await expect(generator.generate(request)).rejects.toBeInstanceOf(PortUnavailableError)
  })
})
