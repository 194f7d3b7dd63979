/**
 * `POST /api/world/profile/{username}/stream`: the same visit as `POST …/{username}`, answered as
 * server-sent events while the Twin writes: `delta` events with text as it comes, then one `done`
 * event with the stored thread and reply (the shape the plain route answers), or one `error` event.
 * A client that disconnects ends the stream: the generation is aborted and nothing is stored.
 * Refusals (bad input, an unknown Twin, rate limits) are plain 4XX answers before any event.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { UseCaseFor, CoreDeps } from '../usecases/use-case.js'
import { prepareVisit, storeVisit, type PreparedVisit } from './visitor-message.js'

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

async function* visitEvents(deps: CoreDeps, visit: PreparedVisit, gone: AbortSignal): AsyncGenerator<string> {
  let text = ''
  let model = ''
  try {
    for await (const chunk of visit.generator.stream(visit.generation, gone)) {
      if (chunk.kind === 'delta') {
        text += chunk.text
        yield sse('delta', { text: chunk.text })
      } else model = chunk.model
    }
  } catch {
    if (!gone.aborted) yield sse('error', { ok: false, error: 'The Twin cannot answer right now; nothing was stored, try again' })
    return
  }
  if (gone.aborted) return // the client went away: the reply is unfinished, nothing is stored
  const stored = await storeVisit(deps, visit, { text, model })
  yield E.isLeft(stored) ? sse('error', { ok: false, error: stored.left.message }) : sse('done', { ok: true, ...stored.right })
}

/** @example await streamWorldProfile({ params: { username: 'ada' }, body: { visitorId: 'v-12345678', text: 'Hello!' }, … }, deps) */
export const streamWorldProfile: UseCaseFor<'streamWorldProfile'> = async (request, deps) => {
  const visit = await prepareVisit(deps, request.params.username, request.body, request.clientAddress)
  if (E.isLeft(visit)) return visit
  return E.right({ kind: 'stream', contentType: 'text/event-stream; charset=utf-8', open: (gone) => visitEvents(deps, visit.right, gone) })
}
