/**
 * `tsx bench/proof.ts` (npm run bench:proof): seal and verify of 1, 16 and 64 MiB files in each
 * carrier that carries large files (PNG, PDF, SVG, ZIP package), next to a raw streaming SHA-256
 * (node:crypto, 64 KiB chunks) of the same bytes measured in the same run. Seal is the whole use
 * case on in-memory ports (record, ledger event and log leaf in one commit, log integration,
 * embedding as parts, both digests), ending with the sealed file as the parts a host writes;
 * verify is the offline verifier with Node's primitives (node:crypto digest, zlib CRC-32 for the
 * package), signature, log inclusion, exactness check, over the file as one array. The same
 * fractions are also given in process CPU time, which other jobs on a shared machine sway less
 * than wall time. Memory: the peak of `arrayBuffers` growth during the operation, in multiples
 * of the file size. Sizes: BENCH_PROOF_MIB="1,16,64" ("" for none); rounds: BENCH_PROOF_ROUNDS (5).
 * The package's seal is also given against its own floor, measured in the same rounds: SHA-256 of
 * the payload, its CRC-32 and SHA-256 of the package, each natively, which any package seal needs.
 *
 * Then the fixed cost per operation, where the hash of the file no longer hides it: BENCH_PROOF_FIXED
 * (1000) seals of 1 KiB files one after another on a fresh sealer, so the log grows through several
 * tiles and each seal meets a partial tile and entry bundle of every width, as a running service
 * does (the rows above seal a few dozen files, all in the log's first tile); each sealed file is
 * verified right after its seal (its own checkpoint, new) and then once again (that checkpoint
 * verified before). Two rows show what a large file's seal pays after its hash: 1 KiB seals, each
 * right after 12 ms spent hashing 16 MiB or asleep (on the VMs measured both cost the same: the time
 * away, not the hash's memory traffic, leaves the seal's code and data cold); the size rows give
 * each seal's time beyond the hash to set beside them. Beside them, one Ed25519 signature and one
 * check with the library Cairn signs and checks with here (libsodium where sodium-native is
 * installed) and with node:crypto: a seal makes two, a first verify checks two and a verify again
 * one, so these bound the fixed cost from below.
 * The loop runs first on another fresh sealer, of which only the seals are printed, on a row of their own:
 * with no size rows before it, that pass runs while the JIT warms up, which a running service does
 * once; the main rows are the second pass.
 *
 * Last, BENCH_PROOF_CONCURRENT (640) 1 KiB seals per store on memory and SQLite (FULL), half one
 * after another and half from 32 concurrent callers (bench/proof-concurrent-seals.ts); every seal
 * must succeed, or the bench fails after printing each failure.
 */
import { createHash, generateKeyPairSync, sign, verify } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { createSealer } from '../conformance/proof/sealer.js'
import { pdfFile, pngFile } from '../conformance/proof/payloads.js'
import { verifyArtifact } from '../core/proof/verify.js'
import { nodeVerifyOptions } from '../core/proof/node-digest.js'
import { libsodium } from '../core/proof/libsodium.js'
import { nodeEd25519Verify } from '../core/proof/node-ed25519.js'
import { heldKeyOf } from '../adapters/shared/held-key.js'
import { CONCURRENT_CALLERS, concurrentSealRows } from './proof-concurrent-seals.js'

const MiB = 1024 * 1024
const SIZES = (process.env.BENCH_PROOF_MIB ?? '1,16,64').split(',').filter(Boolean).map(Number)
const ROUNDS = Number(process.env.BENCH_PROOF_ROUNDS ?? 5)

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  let x = 0x9e3779b9
  for (let i = 0; i < length; i += 4) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    bytes[i] = x
    bytes[i + 1] = x >>> 8
    bytes[i + 2] = x >>> 16
    bytes[i + 3] = x >>> 24
  }
  return bytes
}

function payloads(size: number): { carrier: string; bytes: Uint8Array; filename: string; mimeType: string }[] {
  const data = randomBytes(size)
  const idats: Uint8Array[] = []
  for (let at = 0; at < size; at += 64 * 1024) idats.push(data.subarray(at, Math.min(size, at + 64 * 1024)))
  return [
    { carrier: 'png', bytes: pngFile(idats), filename: 'big.png', mimeType: 'image/png' },
    { carrier: 'pdf', bytes: pdfFile(data), filename: 'big.pdf', mimeType: 'application/pdf' },
    { carrier: 'svg', bytes: svgFile(data), filename: 'big.svg', mimeType: 'image/svg+xml' },
    { carrier: 'zip', bytes: data, filename: 'big.bin', mimeType: 'application/octet-stream' },
  ]
}

/** An SVG of about `data.length` bytes: an embedded image as base64 text, as large SVGs usually are. */
function svgFile(data: Uint8Array): Uint8Array {
  const text = Buffer.from(data.subarray(0, Math.floor((data.length * 3) / 4))).toString('base64')
  return new TextEncoder().encode(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/png;base64,${text}"/></svg>\n`)
}

function rawSha256(...files: readonly (readonly Uint8Array[])[]): string[] {
  return files.map((parts) => {
    const hash = createHash('sha256')
    for (const bytes of parts) for (let at = 0; at < bytes.length; at += 64 * 1024) hash.update(bytes.subarray(at, at + 64 * 1024))
    return hash.digest('hex')
  })
}

/**
 * What sealing a package cannot do without: SHA-256 of the payload (the statement), its CRC-32 (the
 * ZIP headers) and SHA-256 of the package (the sealed digest), which holds the payload again.
 */
function packageFloor(payload: Uint8Array, packageParts: readonly Uint8Array[]): number {
  rawSha256([payload], packageParts)
  return crc32(payload)
}

/** The parts copied into `buffer` (sized for the file and its proof), as a view of exactly their length. */
function joinInto(buffer: Uint8Array, parts: readonly Uint8Array[]): Uint8Array {
  let at = 0
  for (const part of parts) {
    buffer.set(part, at)
    at += part.length
  }
  return buffer.subarray(0, at)
}

interface Figure {
  ms: number
  /** Process CPU time (user + system, every thread), ms: less swayed than wall time by other jobs on a shared machine. */
  cpuMs: number
  peak: number
}

const figure = (): Figure => ({ ms: Infinity, cpuMs: Infinity, peak: 0 })

/** One timed run: wall and CPU ms, and the peak arrayBuffers growth (bytes) sampled every millisecond. */
async function timed(run: () => Promise<unknown> | unknown, figure: Figure): Promise<void> {
  globalThis.gc?.()
  const base = process.memoryUsage().arrayBuffers
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers - base)), 1)
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  await run()
  const cpu = process.cpuUsage(cpuStart)
  figure.ms = Math.min(figure.ms, performance.now() - start)
  figure.cpuMs = Math.min(figure.cpuMs, (cpu.user + cpu.system) / 1000)
  figure.peak = Math.max(figure.peak, peak, process.memoryUsage().arrayBuffers - base)
  clearInterval(sampler)
}

const sealer = await createSealer({ seed: 'bench' })
const rows: string[] = []
for (const size of SIZES) {
  for (const payload of payloads(size * MiB)) {
    // Rounds alternate raw, seal and verify so a busy machine slows all three alike; best of ROUNDS each.
    const raw = figure()
    const seal = figure()
    const verify = figure()
    const floor = figure()
    let parts: readonly Uint8Array[] = []
    const fileBuffer = new Uint8Array(payload.bytes.length + 64 * 1024)
    let ok = false
    for (let round = 0; round < ROUNDS; round++) {
      await timed(() => rawSha256([payload.bytes]), raw)
      // Sealing ends with the sealed file as the parts a host writes to the socket or disk.
      await timed(async () => {
        parts = (await sealer.seal(payload.bytes, payload.filename, payload.mimeType)).parts
      }, seal)
      if (payload.carrier === 'zip') await timed(() => packageFloor(payload.bytes, parts), floor)
      // A verifier reads a file: the parts as one array, joined outside the timed sections into
      // one buffer reused every round, so the harness's own copies leave no garbage to collect
      // inside the timed sections.
      const sealed = joinInto(fileBuffer, parts)
      await timed(async () => {
        ok = (await verifyArtifact(sealed, sealer.trust, nodeVerifyOptions)).ok
      }, verify)
    }
    if (!ok) throw new Error(`${payload.carrier} ${size} MiB did not verify`)
    const rate = (ms: number) => (payload.bytes.length / MiB / (ms / 1000)).toFixed(0)
    const memory = (bytes: number) => (bytes / payload.bytes.length).toFixed(1)
    const cpuRatio = (operation: Figure) => (raw.cpuMs / operation.cpuMs).toFixed(2)
    const ofFloor = payload.carrier === 'zip' ? `${rate(floor.ms)} (seal ${(floor.ms / seal.ms).toFixed(2)}×; CPU ${(floor.cpuMs / seal.cpuMs).toFixed(2)}×)` : '—'
    rows.push(
      `| ${size} MiB | ${payload.carrier} | ${rate(raw.ms)} | ${rate(seal.ms)} (${(raw.ms / seal.ms).toFixed(2)}×) | ${(seal.ms - raw.ms).toFixed(2)} | ${rate(verify.ms)} (${(raw.ms / verify.ms).toFixed(2)}×) | ${cpuRatio(seal)}× / ${cpuRatio(verify)}× | ${ofFloor} | ${memory(seal.peak)}× / ${memory(verify.peak)}× |`,
    )
    console.log(rows.at(-1))
  }
}
const FIXED = Number(process.env.BENCH_PROOF_FIXED ?? 1000)
/** Wall and CPU ms summed over `count` operations (FIXED when not given). */
type Total = { ms: number; cpu: number; count?: number }
const add = async (total: Total, run: () => Promise<unknown>) => {
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  await run()
  const cpu = process.cpuUsage(cpuStart)
  total.ms += performance.now() - start
  total.cpu += (cpu.user + cpu.system) / 1000
}

/** FIXED seals on a fresh sealer (its log growing from empty through four tiles), each file verified right after and once more. */
async function fixedCost(seed: string): Promise<{ seal: Total; first: Total; again: Total }> {
  const fresh = await createSealer({ seed })
  const small = randomBytes(1024)
  const totals = { seal: { ms: 0, cpu: 0 }, first: { ms: 0, cpu: 0 }, again: { ms: 0, cpu: 0 } }
  const verified = async (file: Uint8Array) => (await verifyArtifact(file, fresh.trust, nodeVerifyOptions)).ok || Promise.reject(new Error('did not verify'))
  globalThis.gc?.()
  for (let i = 0; i < FIXED; i++) {
    small[0] = i & 0xff
    small[1] = i >> 8
    let file: Uint8Array = new Uint8Array()
    await add(totals.seal, async () => (file = (await fresh.seal(small, 'small.bin', 'application/octet-stream')).bytes))
    await add(totals.first, () => verified(file))
    await add(totals.again, () => verified(file))
  }
  return totals
}

/** 1 KiB seals as a large file's hash leaves them: each right after 12 ms spent in `pause` (untimed). */
const AFTER_PAUSE = Math.min(FIXED, 200)
async function sealsAfter(seed: string, pause: () => unknown): Promise<Total> {
  const fresh = await createSealer({ seed })
  const small = randomBytes(1024)
  const total = { ms: 0, cpu: 0, count: AFTER_PAUSE }
  for (let i = 0; i < AFTER_PAUSE; i++) {
    small[0] = i & 0xff
    small[1] = i >> 8
    await pause()
    await add(total, () => fresh.seal(small, 'small.bin', 'application/octet-stream'))
  }
  return total
}

if (FIXED > 0) {
  // Run twice, each on its own fresh sealer and log: the first pass pays the JIT's warm-up (with no
  // size rows before it, the first seals run unoptimised code), the second is what a running service
  // sees. The main rows are the second; the first pass's seal is shown beside them.
  const cold = await fixedCost('bench-fixed-cold')
  const totals = await fixedCost('bench-fixed')
  // What a large seal pays after its hash: the same seal made cold by 12 ms elsewhere, hashing or asleep alike.
  const sixteenMiB = randomBytes(16 * MiB)
  const afterHash = await sealsAfter('bench-after-hash', () => rawSha256([sixteenMiB]))
  const afterSleep = await sealsAfter('bench-after-sleep', () => new Promise((resolve) => setTimeout(resolve, 12)))
  // The floor of each: a seal signs twice (statement, checkpoint), a first verify checks two signatures, a verify again one.
  const ed25519 = { sign: { ms: 0, cpu: 0 }, verify: { ms: 0, cpu: 0 }, signInUse: { ms: 0, cpu: 0 }, verifyInUse: { ms: 0, cpu: 0 } }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const held = await heldKeyOf(privateKey, 'EdDSA', 'proof')
  const rawPublicKey = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')
  const message = randomBytes(300)
  const signature = sign(null, message, privateKey)
  for (let i = 0; i < FIXED; i++) {
    await add(ed25519.sign, async () => sign(null, message, privateKey))
    await add(ed25519.verify, async () => verify(null, message, publicKey, signature))
    await add(ed25519.signInUse, async () => held.sign(message))
    await add(ed25519.verifyInUse, async () => nodeEd25519Verify(signature, message, rawPublicKey) || Promise.reject(new Error('did not verify')))
  }
  const inUse = libsodium ? 'libsodium, what Cairn uses here' : 'node:crypto, what Cairn uses here: sodium-native is not installed'
  const perOperation = (ms: number, total: Total) => (ms * 1000) / (total.count ?? FIXED)
  const micros = (total: Total) => perOperation(total.ms, total)
  const row = (label: string, total: Total, verdict = '') => `| ${label} | ${micros(total).toFixed(0)} | ${perOperation(total.cpu, total).toFixed(0)} | ${verdict} |`
  // The targets (wall time), and what each operation costs beyond its Ed25519 floor measured here.
  const verdict = (total: Total, targetMicros: number | undefined, signatures: number, floor: Total, what: string) => {
    const beyond = `${signatures} ${what} + ${(micros(total) - signatures * micros(floor)).toFixed(0)} µs`
    return targetMicros === undefined ? beyond : `${micros(total) <= targetMicros ? 'meets' : 'MISSES'} ≤ ${targetMicros} µs; ${beyond}`
  }
  const fixedRows = [
    row('seal (1 KiB package)', totals.seal, verdict(totals.seal, 500, 2, ed25519.signInUse, 'signatures')),
    row('seal (1 KiB package), first pass of the process (JIT warming up)', cold.seal),
    row(`seal (1 KiB package) right after hashing 16 MiB elsewhere (mean of ${AFTER_PAUSE})`, afterHash),
    row(`seal (1 KiB package) right after 12 ms asleep (mean of ${AFTER_PAUSE})`, afterSleep),
    row('verify, first time', totals.first, verdict(totals.first, 300, 2, ed25519.verifyInUse, 'checks')),
    row('verify, the same file again', totals.again, verdict(totals.again, undefined, 1, ed25519.verifyInUse, 'check')),
    row(`baseline: one Ed25519 signature (${inUse}, 300 bytes)`, ed25519.signInUse),
    row(`baseline: one Ed25519 check (${inUse}, 300 bytes)`, ed25519.verifyInUse),
    row('baseline: one Ed25519 signature (node:crypto, 300 bytes)', ed25519.sign),
    row('baseline: one Ed25519 check (node:crypto, 300 bytes)', ed25519.verify),
  ]
  console.log(`\nFixed cost: mean of ${FIXED} operations, µs per operation\n`)
  console.log('| operation | wall µs | CPU µs | verdict (wall); beyond its Ed25519 floor here |')
  console.log('|---|---:|---:|---|')
  for (const row of fixedRows) console.log(row)
}

console.log(`\nNode ${process.version}; best of ${ROUNDS}; MiB/s (fraction of raw SHA-256 throughput); CPU: the same fraction in CPU time; package floor: SHA-256 of the payload + CRC-32 + SHA-256 of the package\n`)
console.log('| size | carrier | raw SHA-256 MiB/s | seal MiB/s | seal beyond SHA-256 ms | verify MiB/s | CPU seal / verify | package floor MiB/s (seal × floor) | peak memory seal / verify (× file) |')
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|')
for (const row of rows) console.log(row)

const CONCURRENT = Number(process.env.BENCH_PROOF_CONCURRENT ?? 640)
if (CONCURRENT > 0) {
  console.log(`\nConcurrent seals: ${CONCURRENT} 1 KiB seals per store, half one after another, half from ${CONCURRENT_CALLERS} concurrent callers (alternated in two rounds, after 64 warm-up seals)\n`)
  console.log(`| store | sequential seals/s | ${CONCURRENT_CALLERS} callers seals/s | concurrent / sequential | failed |`)
  console.log('|---|---:|---:|---:|---:|')
  const { failures } = await concurrentSealRows(CONCURRENT)
  if (failures.length > 0) {
    for (const failure of failures) console.error(failure)
    throw new Error(`${failures.length} concurrent seals failed`)
  }
}
