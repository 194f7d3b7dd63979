/** Test support: a loopback port nobody listens on now, for a server whose base URL must name its port before it starts. */
import { createServer } from 'node:net'

export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
