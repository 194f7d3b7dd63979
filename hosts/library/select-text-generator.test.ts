/**
 * Choosing the text generator from the deployment configuration and the environment, and one
 * metered Creator run end to end through the OpenAI-compatible adapter (the official SDK) against a
 * local Chat Completions stub: the charge is the usage the server reported.
 */
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DeterministicTextGenerator } from '../../adapters/memory/index.js'
import { OpenAiTextGenerator } from '../../adapters/openai/index.js'
import { startChatCompletionsStub, type ChatCompletionsStub } from '../../adapters/openai/chat-completions-stub-test-support.js'
import type { MeteredRunReply } from '../../core/production/index.js'
import { collections } from '../../core/usecases/collections.js'
import { issueValue } from '../../core/value/index.js'
import { bodyOf, testDeployment } from '../http/oidc-test-support.js'
import { createRuntimeTestWorld } from '../http/runtime-test-support.js'
import { selectTextGenerator } from './select-text-generator.js'

let stub: ChatCompletionsStub
beforeAll(async () => (stub = await startChatCompletionsStub()))
afterAll(() => stub.close())

describe('selectTextGenerator', () => {
  it('is the deterministic built-in generator unless the deployment names another', () => {
    expect(selectTextGenerator({}, {})).toBeInstanceOf(DeterministicTextGenerator)
    expect(selectTextGenerator({ textGenerator: { kind: 'builtin' } }, {})).toBeInstanceOf(DeterministicTextGenerator)
  })

  it('needs a model for the openai kind, from the file or CAIRN_TEXT_MODEL', () => {
    expect(() => selectTextGenerator({ textGenerator: { kind: 'openai' } }, {})).toThrow(/needs a model/)
    expect(selectTextGenerator({ textGenerator: { kind: 'openai' } }, { CAIRN_TEXT_MODEL: 'm' })).toBeInstanceOf(OpenAiTextGenerator)
  })

  it('runs a metered Creator run through a Chat Completions server, with the key from the environment', async () => {
    const text = selectTextGenerator({ textGenerator: { kind: 'openai', model: 'stub-model' } }, { CAIRN_TEXT_BASE_URL: stub.baseUrl, CAIRN_OPENAI_API_KEY: 'sk-from-env' })
    const runtime = await createRuntimeTestWorld({ text, deployment: { ...testDeployment(), businessAccounts: ['boss'] } })
    await runtime.deps.store.declare(collections)
    const boss = await runtime.world.signIn('boss')
    expect(E.isRight(await issueValue(runtime.deps, { userId: boss.userId, unit: 'phi', amount: '100000', idempotencyKey: 'fund' }))).toBe(true)
    const reply = await runtime.call('runCreator', {
      body: { requestId: 'r-1', quoteExpiresAt: '2026-06-25T01:00:00.000Z', prompt: 'Say hello' }, credentials: { sessionCookie: boss.cookie },
    })
    const { run } = bodyOf<MeteredRunReply>(reply)
    expect(run).toMatchObject({ output: 'Hello from the stub', model: 'stub-model', usage: { inputTokens: 7, outputTokens: 4 }, chargedPhiMicro: String(1000 + 7 + 4 * 4) })
    expect(stub.seen.at(-1)).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-from-env', body: { model: 'stub-model', max_tokens: 512 } })
  })
})
