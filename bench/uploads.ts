/**
 * `npm run bench:uploads`: server RSS under UPLOADS (default 100) concurrent uploads of
 * UPLOAD_MIB (default 20) MiB multipart bodies sent without credentials, against Cairn (an
 * authenticated upload route, refused from the headers, and a public one, read within the shared
 * in-flight budget) and against a bare server that buffers each body whole (the baseline),
 * each in its own process in the same run. Prints peak and settled RSS (bench/README.md).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'

const UPLOADS = Number(process.env.UPLOADS ?? 100)
const UPLOAD_MIB = Number(process.env.UPLOAD_MIB ?? 20)
const MiB = 1024 * 1024

async function startServer(kind: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', new URL('./upload-server.ts', import.meta.url).pathname, kind], { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim().split('\n')[0]!))
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  return { url, child }
}

const rssOf = async (url: string, gc = false): Promise<number> => Number(await (await fetch(`${url}/__rss${gc ? '?gc=1' : ''}`)).text())

/** One upload streamed from a shared 1 MiB chunk; resolves with the status (0: connection closed first). */
function upload(url: string, path: string): Promise<number> {
  const boundary = 'cairnbench'
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const chunk = Buffer.alloc(MiB, 0x61)
  const length = head.length + UPLOAD_MIB * MiB + tail.length
  return new Promise((resolve) => {
    let status = 0
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length } }, (res) => {
      status = res.statusCode ?? 0
      res.resume()
      res.on('end', () => resolve(status))
    })
    req.on('error', () => resolve(status))
    req.on('close', () => resolve(status))
    let sent = 0
    const pump = () => {
      if (req.destroyed) return
      if (sent === 0) req.write(head)
      while (sent < UPLOAD_MIB) {
        sent += 1
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      req.end(tail)
    }
    pump()
  })
}

async function measure(kind: string, path: string): Promise<{ before: number; peak: number; settled: number; statuses: Record<number, number>; seconds: number }> {
  const { url, child } = await startServer(kind)
  try {
    const before = await rssOf(url, true)
    let peak = before
    let polling = true
    const poller = (async () => {
      while (polling) {
        peak = Math.max(peak, await rssOf(url).catch(() => peak))
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    const started = performance.now()
    const statuses: Record<number, number> = {}
    for (const status of await Promise.all(Array.from({ length: UPLOADS }, () => upload(url, path)))) statuses[status] = (statuses[status] ?? 0) + 1
    const seconds = (performance.now() - started) / 1000
    polling = false
    await poller
    await new Promise((r) => setTimeout(r, 500))
    const settled = await rssOf(url, true)
    return { before, peak, settled, statuses, seconds }
  } finally {
    child.kill()
  }
}

const mib = (bytes: number) => (bytes / MiB).toFixed(0)
console.log(`${UPLOADS} concurrent uploads of ${UPLOAD_MIB} MiB without credentials (node ${process.version})\n`)
console.log('| server | route | RSS before (MiB) | peak (MiB) | settled (MiB) | answers | seconds |')
console.log('|---|---|---:|---:|---:|---|---:|')
for (const [kind, path, label] of [
  ['buffering', '/upload', 'bare node:http, reads every body whole (baseline)'],
  ['cairn', '/api/connect/verify', 'Cairn, authenticated route (`connectVerify`, Bearer)'],
  ['cairn', '/api/document-seal', 'Cairn, public route (`sealDocument`, None)'],
] as const) {
  const r = await measure(kind, path)
  const answers = Object.entries(r.statuses).map(([s, n]) => `${n}× ${s === '0' ? 'closed' : s}`).join(', ')
  console.log(`| ${label} | ${path} | ${mib(r.before)} | ${mib(r.peak)} | ${mib(r.settled)} | ${answers} | ${r.seconds.toFixed(1)} |`)
}
