/**
 * The OpenAI-compatible adapter, driven by the official SDK against a local stub on 127.0.0.1 that
 * speaks the Chat Completions wire format (JSON and server-sent-event streaming), as llama.cpp,
 * vLLM and Ollama do.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PortUnavailableError } from '../../ports/errors.js'
import { OpenAiTextGenerator } from './openai-text-generator.js'

interface Seen { path: string; authorization: string | undefined; body: Record<string, unknown> }
const seen: Seen[] = []
let failNext = false
let server: Server
let baseUrl: string

const readJson = (req: IncomingMessage) => new Promise<Record<string, unknown>>((resolve) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>))
})

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readJson(req)
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body })
    if (failNext) {
      failNext = false
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'boom', type: 'server_error' } }))
      return
    }
    const words = ['Hello', ' from', ' the', ' stub']
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      for (const [i, word] of words.entries()) {
        res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'stub-model', choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content: word } : { content: word }, finish_reason: null }] })}\n\n`)
      }
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'stub-model', choices: [], usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 } })}\n\n`)
      res.end('data: [DONE]\n\n')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      id: 'c1', object: 'chat.completion', created: 1, model: 'stub-model',
      choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 },
    }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const request = { system: 'You are a Twin.', prompt: 'Say hello', maxTokens: 32, user: 'pseudonym-1' }

describe('OpenAiTextGenerator', () => {
  it('sends a Chat Completions request with the key from options and answers the text and usage', async () => {
    const generator = new OpenAiTextGenerator({ baseUrl, model: 'stub-model', apiKey: 'sk-test', maxRetries: 0 })
    expect(await generator.generate(request)).toEqual({ text: 'Hello from the stub', model: 'stub-model', inputTokens: 7, outputTokens: 4 })
    expect(seen.at(-1)).toEqual({
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
    expect(seen.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
  })

  it('turns a provider failure into PortUnavailableError (the operation answers 503 and spends nothing)', async () => {
    failNext = true
    const generator = new OpenAiTextGenerator({ baseUrl, model: 'stub-model', apiKey: 'sk-test', maxRetries: 0 })
    await expect(generator.generate(request)).rejects.toBeInstanceOf(PortUnavailableError)
  })
})
