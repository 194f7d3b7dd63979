/**
 * An EventBus that lives in another process: a child speaking JSON lines on stdin/stdout (see
 * serveEventBusOverStdio) runs the real adapter, and this proxy forwards publish, subscribe and
 * close to it. It lets the EventBus suite's `connectAgain` be another host for real, not another
 * object in the same process.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import type { EventBus } from '../../ports/event-bus.js'
import type { Json } from '../../ports/store.js'

type Request =
  | { readonly op: 'publish'; readonly topic: string; readonly message: Json }
  | { readonly op: 'subscribe'; readonly topic: string }
  | { readonly op: 'unsubscribe'; readonly subscription: number }
  | { readonly op: 'close' }

type Reply = { readonly id: number; readonly ok: true; readonly subscription?: number } | { readonly id: number; readonly ok: false; readonly error: string }
type Delivery = { readonly delivery: number; readonly message: Json }

/** The parent's side: resolves once the child printed `ready`. */
export async function eventBusInChild(child: ChildProcessWithoutNullStreams): Promise<EventBus> {
  const lines = createInterface({ input: child.stdout })
  const waiting = new Map<number, (reply: Reply) => void>()
  const listeners = new Map<number, (message: Json) => void>()
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = once(child, 'exit')
  const ready = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') return resolve()
      const parsed = JSON.parse(line) as Reply | Delivery
      if ('delivery' in parsed) listeners.get(parsed.delivery)?.(parsed.message)
      else waiting.get(parsed.id)?.(parsed)
    })
    void exited.then(() => reject(new Error(`the event bus process exited: ${stderr}`)))
  })
  await ready
  let next = 0
  const call = (request: Request): Promise<Extract<Reply, { ok: true }>> => {
    const id = next++
    return new Promise((resolve, reject) => {
      waiting.set(id, (reply) => {
        waiting.delete(id)
        if (reply.ok) resolve(reply)
        else reject(new Error(reply.error))
      })
      child.stdin.write(`${JSON.stringify({ id, ...request })}\n`)
    })
  }
  return {
    publish: async (topic, message) => void (await call({ op: 'publish', topic, message })),
    subscribe: async (topic, onMessage) => {
      const { subscription } = await call({ op: 'subscribe', topic })
      listeners.set(subscription!, onMessage)
      return async () => {
        listeners.delete(subscription!)
        await call({ op: 'unsubscribe', subscription: subscription! })
      }
    },
    close: async () => {
      if (child.exitCode !== null) return
      await call({ op: 'close' }).catch(() => undefined)
      child.stdin.end()
      await exited
    },
  }
}

/** The child's side: serve `bus` on stdin/stdout until told to close. */
export function serveEventBusOverStdio(bus: EventBus): void {
  const ends = new Map<number, () => Promise<void>>()
  let next = 0
  const write = (value: Reply | Delivery) => process.stdout.write(`${JSON.stringify(value)}\n`)
  createInterface({ input: process.stdin }).on('line', (line) => {
    const request = JSON.parse(line) as Request & { id: number }
    const answer = async (): Promise<Reply> => {
      switch (request.op) {
        case 'publish':
          await bus.publish(request.topic, request.message)
          return { id: request.id, ok: true }
        case 'subscribe': {
          const subscription = next++
          ends.set(subscription, await bus.subscribe(request.topic, (message) => write({ delivery: subscription, message })))
          return { id: request.id, ok: true, subscription }
        }
        case 'unsubscribe':
          await ends.get(request.subscription)?.()
          ends.delete(request.subscription)
          return { id: request.id, ok: true }
        case 'close':
          await bus.close()
          setImmediate(() => process.exit(0))
          return { id: request.id, ok: true }
      }
    }
    answer().then(write, (error: unknown) => write({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }))
  })
  process.stdout.write('ready\n')
}
