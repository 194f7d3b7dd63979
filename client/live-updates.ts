/**
 * Live Twin updates over WebSocket (`<base>/api/world/live`, hosts/ws/live-updates.ts): subscribe
 * to topics, remember the last cursor of each, and when the connection drops, reconnect with
 * exponential backoff and full jitter and resume every topic after its cursor — no update lost,
 * none twice. Works with the browser's WebSocket or any constructor of the same shape (`ws` in Node 20).
 */

export interface LiveUpdate {
  readonly topic: string
  readonly cursor?: string
  readonly data: Readonly<Record<string, unknown>>
}

export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'closed'

/** The part of the WebSocket API the client uses (browsers', Node 22's, or the `ws` package's). */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { readonly data: unknown }) => void) | null
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null
  onerror: ((event: unknown) => void) | null
}

export interface LiveUpdatesOptions {
  /** `twin:<username>` or `public`. */
  readonly topics: readonly string[]
  readonly onUpdate: (update: LiveUpdate) => void
  readonly onStatus?: (status: LiveStatus, detail?: string) => void
  /** A server `error` frame (an unknown Twin, a bad topic). */
  readonly onError?: (message: string, topic?: string) => void
  /** Cursors to resume from (saved from an earlier run). */
  readonly after?: Readonly<Record<string, string>>
  /** @default globalThis.WebSocket */
  readonly WebSocket?: new (url: string) => WebSocketLike
  /** @default { baseDelayMs: 500, maxDelayMs: 30000 } */
  readonly backoff?: { readonly baseDelayMs?: number; readonly maxDelayMs?: number }
}

export interface LiveConnection {
  /** The last cursor seen per topic (save them to resume in a later run). */
  cursors(): Readonly<Record<string, string>>
  /** Stop for good: no reconnect. */
  close(): void
}

/** @example const live = connectLiveUpdates(cairn.baseUrl, { topics: ['twin:ada'], onUpdate: (u) => render(u.data) }) */
export function connectLiveUpdates(baseUrl: string, options: LiveUpdatesOptions): LiveConnection {
  const url = `${baseUrl.replace(/\/+$/u, '').replace(/^http/u, 'ws')}/api/world/live`
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket
  if (!Socket) throw new Error('No WebSocket here: pass options.WebSocket (in Node 20, the ws package\'s WebSocket)')
  const cursors: Record<string, string> = { ...options.after }
  const base = options.backoff?.baseDelayMs ?? 500
  const max = options.backoff?.maxDelayMs ?? 30_000
  let failures = 0
  let stopped = false
  let socket: WebSocketLike | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const open = () => {
    options.onStatus?.(failures === 0 ? 'connecting' : 'reconnecting')
    const current = new Socket(url)
    socket = current
    current.onopen = () => {
      for (const topic of options.topics) current.send(JSON.stringify({ type: 'subscribe', topic, ...(cursors[topic] ? { after: cursors[topic] } : {}) }))
    }
    current.onmessage = (event) => {
      let frame: { type?: string; topic?: string; cursor?: string; data?: Record<string, unknown>; error?: string }
      try {
        frame = JSON.parse(String(event.data)) as typeof frame
      } catch {
        return
      }
      if (frame.type === 'subscribed') {
        failures = 0
        options.onStatus?.('open', frame.topic)
      } else if (frame.type === 'update' && frame.topic && frame.data) {
        if (frame.cursor) cursors[frame.topic] = frame.cursor
        options.onUpdate({ topic: frame.topic, ...(frame.cursor ? { cursor: frame.cursor } : {}), data: frame.data })
      } else if (frame.type === 'error') options.onError?.(frame.error ?? 'error', frame.topic)
    }
    current.onerror = () => {}
    current.onclose = (event) => {
      if (socket !== current) return
      if (stopped) return options.onStatus?.('closed')
      failures++
      const delay = Math.floor(Math.random() * Math.min(max, base * 2 ** (failures - 1)))
      options.onStatus?.('reconnecting', `closed ${event.code}${event.reason ? ` (${event.reason})` : ''}; again in ${delay} ms`)
      timer = setTimeout(open, delay)
    }
  }
  open()

  return {
    cursors: () => ({ ...cursors }),
    close() {
      stopped = true
      if (timer) clearTimeout(timer)
      socket?.close(1000, 'client closed')
    },
  }
}
