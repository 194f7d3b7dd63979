/**
 * A local stub on 127.0.0.1 that speaks the Chat Completions wire format (JSON and server-sent-event
 * streaming), as llama.cpp, vLLM and Ollama do: it answers "Hello from the stub" with fixed usage
 * (7 prompt tokens, 4 completion tokens) and records every request it saw.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SeenRequest { path: string; authorization: string | undefined; body: Record<string, unknown> }

export interface ChatCompletionsStub {
  /** e.g. `http://127.0.0.1:41234/v1`. */
  readonly baseUrl: string
  readonly seen: SeenRequest[]
  /** The next request is answered 500. */
  failNext(): void
  close(): Promise<void>
}

const readJson = (req: IncomingMessage) => new Promise<Record<string, unknown>>((resolve) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>))
})

export async function startChatCompletionsStub(): Promise<ChatCompletionsStub> {
  const seen: SeenRequest[] = []
  let failing = false
  const server = createServer(async (req, res) => {
    const body = await readJson(req)
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body })
    if (failing) {
      failing = false
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
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    failNext: () => void (failing = true),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
