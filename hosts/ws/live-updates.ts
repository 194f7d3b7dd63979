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
 * updates after it, then continues live without duplicates.
 * Safety: frames over `maxFrameBytes` close the socket (1009), malformed JSON closes it (1007), a
 * flood of frames closes it (1008), a client that lets `maxBufferedBytes` pile up is dropped (1013),
 * and ping/pong heartbeats drop dead connections.
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import * as E from 'fp-ts/lib/Either.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'
import { LIVE_RESUME_WINDOW, LIVE_TOPIC_FORMS, openLiveTopic } from '../../core/world/index.js'
import type { Json } from '../../ports/store.js'

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
}

export interface LiveUpdates {
  /** Connected sockets on this host. */
  readonly connections: () => number
  close(): Promise<void>
}

/** Stored updates a resume replays at most (newest first, then sent oldest first). */
export const RESUME_WINDOW = LIVE_RESUME_WINDOW
export const LIVE_PATH = '/api/world/live'

interface Subscription {
  readonly topic: string
  readonly busTopic: string
  /** Message ids already sent on this subscription (a replay and the live feed may overlap). */
  readonly sent: Set<string>
}

export function attachLiveUpdates(server: Server, deps: CoreDeps, options: LiveUpdateOptions = {}): LiveUpdates {
  const baseUrl = new URL(deps.config.baseUrl)
  const path = baseUrl.pathname.replace(/\/+$/, '') + LIVE_PATH
  const origins = new Set([baseUrl.origin, ...(options.allowedOrigins ?? [])])
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024
  const maxFrames = options.maxFramesPerSecond ?? 20
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 4096 })
  const subscribers = new Map<string, Set<{ socket: WebSocket; subscription: Subscription }>>()
  const busEnds = new Map<string, Promise<() => Promise<void>>>()

  const sendText = (socket: WebSocket, text: string) => {
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > maxBuffered) return socket.close(1013, 'too slow: updates piled up unsent')
    socket.send(text)
  }
  const send = (socket: WebSocket, frame: Record<string, unknown>) => sendText(socket, JSON.stringify(frame))
  /** `frames` caches each topic's frame text, so a fan-out serialises an update once, not once a socket. */
  const deliver = (socket: WebSocket, subscription: Subscription, data: Record<string, unknown>, frames = new Map<string, string>()) => {
    const id = typeof data['messageId'] === 'string' ? data['messageId'] : undefined
    if (id !== undefined) {
      if (subscription.sent.has(id)) return
      subscription.sent.add(id)
    }
    let text = frames.get(subscription.topic)
    if (text === undefined) {
      text = JSON.stringify({ type: 'update', topic: subscription.topic, ...(typeof data['cursor'] === 'string' ? { cursor: data['cursor'] } : {}), data })
      frames.set(subscription.topic, text)
    }
    sendText(socket, text)
  }
  const listen = (busTopic: string) => {
    if (!busEnds.has(busTopic)) {
      busEnds.set(busTopic, deps.events.subscribe(busTopic, (message: Json) => {
        const frames = new Map<string, string>()
        for (const { socket, subscription } of subscribers.get(busTopic) ?? []) deliver(socket, subscription, message as Record<string, unknown>, frames)
      }))
    }
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
      for (const subscription of mine.values()) subscribers.get(subscription.busTopic)?.forEach((entry) => entry.socket === socket && subscribers.get(subscription.busTopic)!.delete(entry))
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
          subscribers.get(subscription.busTopic)?.forEach((entry) => entry.subscription === subscription && subscribers.get(subscription.busTopic)!.delete(entry))
        }
        return send(socket, { type: 'unsubscribed', topic })
      }
      if (frame.type !== 'subscribe') return send(socket, { type: 'error', error: 'type must be "subscribe" or "unsubscribe"' })
      if (mine.has(topic)) return send(socket, { type: 'error', error: `Already subscribed to ${topic}` })
      void subscribe(socket, mine, topic, typeof frame.secret === 'string' ? frame.secret : undefined, typeof frame.after === 'string' ? frame.after : undefined)
    })
  })

  async function subscribe(socket: WebSocket, mine: Map<string, Subscription>, topic: string, secret: string | undefined, after: string | undefined) {
    const opened = await openLiveTopic(deps, topic, secret)
    if (E.isLeft(opened)) return send(socket, { type: 'error', topic, error: opened.left.message })
    const { busTopic } = opened.right
    const subscription: Subscription = { topic, busTopic, sent: new Set() }
    mine.set(topic, subscription)
    // Live first, so nothing published during the replay is missed; the ids drop what both carry.
    const entry = { socket, subscription }
    subscribers.set(busTopic, (subscribers.get(busTopic) ?? new Set()).add(entry))
    listen(busTopic)
    await busEnds.get(busTopic)
    send(socket, { type: 'subscribed', topic })
    if (after !== undefined) for (const update of await opened.right.replayAfter(after)) deliver(socket, subscription, update)
  }

  return {
    connections: () => wss.clients.size,
    async close() {
      server.off('upgrade', onUpgrade)
      for (const socket of wss.clients) socket.close(1001, 'the server is going away')
      await Promise.all([...busEnds.values()].map(async (end) => (await end)()))
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
