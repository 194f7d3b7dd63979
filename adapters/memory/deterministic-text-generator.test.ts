/** The built-in generator: the same request gives the same text, streamed and whole alike. */
import { describe, expect, it } from 'vitest'
import { DeterministicTextGenerator } from './deterministic-text-generator.js'

const request = { system: 'You are a Twin.', prompt: 'Tell me about cairns', maxTokens: 40 }

describe('DeterministicTextGenerator', () => {
  it('answers the same text for the same request on every run (golden)', async () => {
    const text = await new DeterministicTextGenerator().generate(request)
    expect(text).toEqual(await new DeterministicTextGenerator().generate(request))
    expect(text.text).toMatch(/^\[cairn-deterministic-1\] 4 words received \(sha256 [0-9a-f]{12}\)\. [A-Z][a-z]+( [a-z]+)+\.$/)
    expect(text).toMatchInlineSnapshot(`
      {
        "inputTokens": 8,
        "model": "cairn-deterministic-1",
        "outputTokens": 20,
        "text": "[cairn-deterministic-1] 4 words received (sha256 ce90a541b758). Orchard cairn horizon anchor quarry thread ledger orchard beacon thread canvas circuit horizon thread.",
      }
    `)
  })

  it('streams the same text in pieces and stops when aborted', async () => {
    const generator = new DeterministicTextGenerator()
    let streamed = ''
    for await (const chunk of generator.stream(request)) if (chunk.kind === 'delta') streamed += chunk.text
    expect(streamed).toBe((await generator.generate(request)).text)
    const controller = new AbortController()
    const read = async () => {
      for await (const chunk of generator.stream(request, controller.signal)) if (chunk.kind === 'delta') controller.abort()
    }
    await expect(read()).rejects.toThrow()
  })

  it('answers differently for a different prompt', async () => {
    const generator = new DeterministicTextGenerator()
    expect((await generator.generate({ ...request, prompt: 'Something else' })).text).not.toBe((await generator.generate(request)).text)
  })
})
