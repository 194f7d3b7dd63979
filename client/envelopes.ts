/**
 * Every signed runtime envelope is checked by the project's verifier (core/runtime/verify-envelope.ts,
 * `cairn/runtime-verify`) before a call answers it: the signature against the deployment's JWKS,
 * the binding against the request this client sent, the Kai time window against the client's
 * clock. An envelope that fails is never handed over: the call answers `Unverified`.
 */
import { verifyRuntimeEnvelope } from '../core/runtime/verify-envelope.js'
import { failure, type Result } from './result.js'

export interface EnvelopeTrust {
  readonly jwks: { readonly keys: readonly JsonWebKey[] }
  /** The deployment's host (and port), as in its base URL. */
  readonly domain: string
  readonly now: number
}

export interface SentCall {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: unknown
  readonly params?: unknown
  /** The audience (or any of the audiences) the answer must be bound to; by default the challenge's, the body's, or the application. */
  readonly audience?: string | readonly string[]
}

const field = (value: unknown, name: string): string | undefined => {
  const member = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
  return typeof member === 'string' ? member : undefined
}

/** The application and audience a request names (its body, else its path parameters). */
export function bindingOf(sent: SentCall): { applicationId: string | undefined; audiences: readonly string[] } {
  const applicationId = field(sent.body, 'applicationId') ?? field(sent.params, 'applicationId')
  const challenge = typeof sent.body === 'object' && sent.body !== null ? (sent.body as Record<string, unknown>)['signedChallenge'] : undefined
  const audience = sent.audience ?? field(challenge, 'audience') ?? field(sent.body, 'audience') ?? applicationId
  return { applicationId, audiences: audience === undefined ? [] : typeof audience === 'string' ? [audience] : audience }
}

export async function verifyEnvelopeAnswer<T>(answer: Result<T> & { ok: true }, sent: SentCall, trust: EnvelopeTrust): Promise<Result<T>> {
  const { applicationId, audiences } = bindingOf(sent)
  if (applicationId === undefined || audiences.length === 0) return failure({ _tag: 'Unverified', status: answer.status, message: 'The request names no applicationId, so its signed answer cannot be checked' })
  let first: readonly string[] | undefined
  // Several audiences: an answer may be bound to any one of them (an execute refused before its session is read is bound to the application).
  for (const audience of audiences) {
    const verdict = await verifyRuntimeEnvelope(answer.value, { method: sent.method, path: sent.path, body: sent.method === 'GET' ? null : sent.body ?? null, applicationId, audience, domain: trust.domain }, { jwks: trust.jwks, now: trust.now })
    if (verdict.ok) return answer
    first ??= verdict.errors
  }
  return failure({ _tag: 'Unverified', status: answer.status, message: `The signed answer did not verify: ${first!.join('; ')}` })
}
