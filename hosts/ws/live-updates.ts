/**
 * The WebSocket host: Live Twin updates and the public world feed, at `<base path>/api/world/live`
 * on the same server as the HTTP host (ws package, `noServer` upgrade handling). Updates travel
 * through the EventBus, so a visitor message posted to one host reaches subscribers on every host.
 * Like the World routes it mirrors, it is public; browsers are held to the allowed origins.
 *
 * Client frames (JSON text): `{ type: "subscribe", topic: "twin:<username>" | "thread:<threadId>" | "public", secret?, after? }`
 * and `{ type: "unsubscribe", topic }`. Server frames: `subscribed`, `update` (`topic`, `cursor`,
 * `data`), `unsubscribed`, `error`. What each topic carries and who may open it is core's
 * (core/world/live-topics.ts): public topics carry metadata only, a thread's replies need its
 * secret. A subscription with `after` (a cursor from an earlier update) first replays the stored
 * updates after it, then continues live, in order and without duplicates (live updates arriving
 * meanwhile wait for the replay); a `missed` frame says where updates were lost (more than
 * RESUME_WINDOW since the cursor, or too many held during a replay).
 * Resources: each bus topic is subscribed while someone on this host watches it (bus-topics.ts), a
 * socket watches at most `maxTopicsPerSocket` topics, and what a subscription remembers is bounded.
 * Safety: frames over `maxFrameBytes` close the socket (1009), malformed JSON closes it (1007), a
 * flood of frames closes it (1008), a client that lets `maxBufferedBytes` pile up is dropped (1013),
 * and ping/pong heartbeats drop dead connections.
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import * as E from 'fp-ts/lib/Either.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import { LIVE_RESUME_WINDOW, LIVE_TOPIC_FORMS, openLiveTopic, type LiveTopic } from '../../core/world/index.js'
import type { Json } from '../../ports/store.js'
import { busTopics, type Watcher } from './bus-topics.js'

export interface LiveUpdateOptions {
  /** Origins browsers may connect from, besides the base URL's own. */
  readonly allowedOrigins?: readonly string[]
  /** @default 4096 */
  readonly maxFrameBytes?: number
  /** Bytes a socket may leave unsent before it is dropped as too slow. @default 1 MiB */
  readonly maxBufferedBytes?: number
  /** Client frames a socket may send per second. @default 20 */
  readonly maxFramesPerSecond?: number
  /** @default 30000 */
  readonly heartbeatMs?: number
  /** Topics one socket may watch at once. @default 16 */
  readonly maxTopicsPerSocket?: number
  /** Stored updates a resume replays at most. @default RESUME_WINDOW (200) */
  readonly resumeWindow?: number
}

export interface LiveUpdates {
  /** Connected sockets on this host. */
  readonly connections: () => number
  /** Bus topics this host is subscribed to (each watched by at least one socket). */
  readonly topics: () => number
  close(): Promise<void>
}

/** Stored updates a resume replays at most (newest first, then sent oldest first). */
export const RESUME_WINDOW = LIVE_RESUME_WINDOW
export const LIVE_PATH = '/api/world/live'
/** Live updates held back while a resume replays stored ones; past this, a `missed` frame follows them. */
export const MAX_HELD_DURING_REPLAY = 1000

/** While a resume replays stored updates: the live ones that arrived meanwhile, in order, and the ids replayed. */
interface Replay {
  readonly held: Record<string, unknown>[]
  readonly replayed: Set<string>
  overflowed: boolean
}

interface Subscription {
  readonly topic: string
  readonly busTopic: string
  readonly watcher: Watcher
  /** Set only while a resume replays (then the ids it remembers are at most `resumeWindow`). */
  replay: Replay | undefined
}

export function attachLiveUpdates(server: Server, deps: CoreDeps, options: LiveUpdateOptions = {}): LiveUpdates {
  const baseUrl = new URL(deps.config.baseUrl)
  const path = baseUrl.pathname.replace(/\/+$/, '') + LIVE_PATH
  const origins = new Set([baseUrl.origin, ...(options.allowedOrigins ?? [])])
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024
  const maxFrames = options.maxFramesPerSecond ?? 20
  const maxTopics = options.maxTopicsPerSocket ?? 16
  const resumeWindow = options.resumeWindow ?? RESUME_WINDOW
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 4096 })
  const topics = busTopics(deps.events)

  const sendText = (socket: WebSocket, text: string) => {
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > maxBuffered) return socket.close(1013, 'too slow: updates piled up unsent')
    socket.send(text)
  }
  const send = (socket: WebSocket, frame: Record<string, unknown>) => sendText(socket, JSON.stringify(frame))
  const missed = (socket: WebSocket, topic: string, reason: string) => send(socket, { type: 'missed', topic, reason })
  /** `frames` caches each topic's frame text, so a fan-out serialises an update once, not once a socket. */
  const deliver = (socket: WebSocket, subscription: Subscription, data: Record<string, unknown>, frames = new Map<string, string>()) => {
    let text = frames.get(subscription.topic)
    if (text === undefined) {
      text = JSON.stringify({ type: 'update', topic: subscription.topic, ...(typeof data['cursor'] === 'string' ? { cursor: data['cursor'] } : {}), data })
      frames.set(subscription.topic, text)
    }
    sendText(socket, text)
  }
  /** A live update: sent now, or held (bounded) until the replay in progress has been sent. */
  const deliverLive = (socket: WebSocket, subscription: Subscription, data: Record<string, unknown>, frames: Map<string, string>) => {
    const replay = subscription.replay
    if (replay === undefined) return deliver(socket, subscription, data, frames)
    if (replay.held.length < MAX_HELD_DURING_REPLAY) replay.held.push(data)
    else replay.overflowed = true
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://x').pathname !== path) return // another upgrade handler's path
    const origin = request.headers.origin
    if (origin !== undefined && !origins.has(origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"ok":false,"error":"This origin may not open live updates"}')
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  }
  server.on('upgrade', onUpgrade)

  wss.on('connection', (socket: WebSocket) => {
    const mine = new Map<string, Subscription>()
    /** Topics whose subscription is being set up (counted against the cap, refused twice); true once unsubscribed meanwhile. */
    const starting = new Map<string, boolean>()
    let alive = true
    let windowStart = Date.now()
    let frames = 0
    socket.on('pong', () => (alive = true))
    // ws closes the socket itself on protocol errors (an oversized frame: 1009); nothing else to do.
    socket.on('error', () => undefined)
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate()
      alive = false
      socket.ping()
    }, options.heartbeatMs ?? 30_000)
    heartbeat.unref()
    socket.on('close', () => {
      clearInterval(heartbeat)
      for (const subscription of mine.values()) topics.leave(subscription.busTopic, subscription.watcher)
      mine.clear()
    })
    socket.on('message', (raw, isBinary) => {
      const now = Date.now()
      if (now - windowStart >= 1000) (windowStart = now), (frames = 0)
      if (++frames > maxFrames) return socket.close(1008, `more than ${maxFrames} frames a second`)
      let frame: { type?: unknown; topic?: unknown; after?: unknown; secret?: unknown }
      try {
        if (isBinary) throw new Error('binary')
        frame = JSON.parse(raw.toString()) as typeof frame
      } catch {
        return socket.close(1007, 'frames are JSON text')
      }
      if (typeof frame !== 'object' || frame === null || typeof frame.topic !== 'string') return send(socket, { type: 'error', error: `A frame is { type: "subscribe" | "unsubscribe", topic, secret?, after? }; topic is ${LIVE_TOPIC_FORMS}` })
      const topic = frame.topic
      if (frame.type === 'unsubscribe') {
        const subscription = mine.get(topic)
        if (subscription) {
          mine.delete(topic)
          topics.leave(subscription.busTopic, subscription.watcher)
        }
        if (starting.has(topic)) starting.set(topic, true)
        return send(socket, { type: 'unsubscribed', topic })
      }
      if (frame.type !== 'subscribe') return send(socket, { type: 'error', error: 'type must be "subscribe" or "unsubscribe"' })
      if (mine.has(topic) || starting.has(topic)) return send(socket, { type: 'error', error: `Already subscribed to ${topic}` })
      if (mine.size + starting.size >= maxTopics) return send(socket, { type: 'error', topic, error: `A connection watches at most ${maxTopics} topics: unsubscribe from one first` })
      starting.set(topic, false)
      const secret = typeof frame.secret === 'string' ? frame.secret : undefined
      void subscribe(socket, mine, topic, secret, typeof frame.after === 'string' ? frame.after : undefined, () => starting.get(topic) === true)
        .catch(() => send(socket, { type: 'error', topic, error: 'Live updates are unavailable right now; try again shortly' }))
        .finally(() => starting.delete(topic))
    })
  })

  async function subscribe(socket: WebSocket, mine: Map<string, Subscription>, topic: string, secret: string | undefined, after: string | undefined, unsubscribedMeanwhile: () => boolean) {
    const opened = await openLiveTopic(deps, topic, secret)
    if (E.isLeft(opened)) return send(socket, { type: 'error', topic, error: opened.left.message })
    const { busTopic } = opened.right
    const subscription: Subscription = {
      topic,
      busTopic,
      watcher: (message: Json, frames) => deliverLive(socket, subscription, message as Record<string, unknown>, frames),
      // Live first, so nothing published during the replay is missed; it waits until the replay is sent.
      replay: after !== undefined ? { held: [], replayed: new Set(), overflowed: false } : undefined,
    }
    await topics.join(busTopic, subscription.watcher)
    if (socket.readyState !== socket.OPEN || unsubscribedMeanwhile()) return topics.leave(busTopic, subscription.watcher)
    mine.set(topic, subscription)
    send(socket, { type: 'subscribed', topic })
    if (after !== undefined) await replay(socket, mine, subscription, opened.right, after)
  }

  /** Send the stored updates after `after` (the newest `resumeWindow`), then the live ones held meanwhile, in order. */
  async function replay(socket: WebSocket, mine: Map<string, Subscription>, subscription: Subscription, live: LiveTopic, after: string) {
    const state = subscription.replay!
    const stillSubscribed = () => mine.get(subscription.topic) === subscription
    try {
      const stored = await live.replayAfter(after, resumeWindow)
      if (!stillSubscribed()) return
      if (stored.truncated) {
        missed(socket, subscription.topic, `More than ${resumeWindow} updates since that cursor; only the newest ${resumeWindow} follow. Read the thread for the rest.`)
      }
      for (const data of stored.updates) {
        const id = data['messageId']
        if (typeof id === 'string') state.replayed.add(id)
        deliver(socket, subscription, data)
      }
    } catch {
      if (stillSubscribed()) missed(socket, subscription.topic, 'The stored updates could not be read; only live ones follow. Read the thread for the rest.')
    } finally {
      subscription.replay = undefined
    }
    if (!stillSubscribed()) return
    for (const data of state.held) {
      const id = data['messageId']
      if (typeof id !== 'string' || !state.replayed.has(id)) deliver(socket, subscription, data)
    }
    if (state.overflowed) missed(socket, subscription.topic, `More than ${MAX_HELD_DURING_REPLAY} live updates arrived during the replay; later ones were dropped. Read the thread for the rest.`)
  }

  return {
    connections: () => wss.clients.size,
    topics: () => topics.size(),
    async close() {
      server.off('upgrade', onUpgrade)
      for (const socket of wss.clients) socket.close(1001, 'the server is going away')
      await topics.close()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
