import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { sha256Hex } from '../../core/digest/sha256.js'
import { BlobIntegrityError, PortUnavailableError } from '../../ports/errors.js'
import { startLocalS3Server, type LocalS3Server } from './local-s3-server.js'
import { S3BlobStore } from './s3-blob-store.js'
import { chunksOf, collectBytes, patternedBytes } from '../shared/test-bytes.js'

const MiB = 1024 * 1024
let s3: LocalS3Server

beforeAll(async () => {
  s3 = await startLocalS3Server()
})
afterAll(async () => {
  await s3?.stop()
})

describe('S3BlobStore on a local S3 server', () => {
  it('keeps bytes at <prefix><sha256> and reads them back verified', async () => {
    const { store, options } = openStore()
    const bytes = new TextEncoder().encode('hello, cairn')
    const ref = await store.put(bytes)
    expect(ref).toEqual({ sha256: sha256Hex(bytes), size: bytes.byteLength })
    // Read the object directly, not through the store under test.
    expect(await readRaw(`${options.prefix}${ref.sha256}`)).toEqual(bytes)
    expect(await store.get(ref.sha256)).toEqual(bytes)
    expect(await store.has(ref.sha256)).toBe(true)
    expect(await collectBytes(await store.getStream(ref.sha256))).toEqual(bytes)
    await store.close()
  })

  it('writes an address once: a second put of the same bytes only looks', async () => {
    const { store, commands } = openStore()
    const bytes = patternedBytes(1000, 1)
    await store.put(bytes)
    await store.put(bytes)
    // HeadObject's 404 cannot tell a missing key from a missing bucket: the first miss asks GetObject.
    expect(commands).toEqual(['HeadObjectCommand', 'GetObjectCommand', 'PutObjectCommand', 'HeadObjectCommand'])
    await store.close()
  })

  it('answers undefined or false for absent and malformed addresses, without asking S3 for the latter', async () => {
    const { store, commands } = openStore()
    const absent = sha256Hex('never stored')
    expect(await store.get(absent)).toBeUndefined()
    expect(await store.getStream(absent)).toBeUndefined()
    expect(await store.has(absent)).toBe(false)
    const asked = commands.length
    for (const malformed of ['../etc/passwd', absent.toUpperCase(), absent.slice(1), '']) {
      expect(await store.get(malformed)).toBeUndefined()
      expect(await store.has(malformed)).toBe(false)
    }
    expect(commands.length).toBe(asked)
    await store.close()
  })

  it('detects bytes replaced at rest, in get and at the end of getStream', async () => {
    const { store, options } = openStore()
    const ref = await store.put(patternedBytes(300_000, 2))
    const other = patternedBytes(300_000, 3)
    await s3.rawClient().send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${options.prefix}${ref.sha256}`, Body: other }))

    const failure = await store.get(ref.sha256).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(BlobIntegrityError)
    expect(failure).toMatchObject({ sha256: ref.sha256, actualSha256: sha256Hex(other) })

    const received: Uint8Array[] = []
    const streamed = (async () => {
      for await (const chunk of (await store.getStream(ref.sha256))!) received.push(chunk)
    })()
    await expect(streamed).rejects.toBeInstanceOf(BlobIntegrityError)
    expect(sameBytes(Buffer.concat(received), other)).toBe(true)
    await store.close()
  })

  it('streams a multi-MiB blob in 8 MiB parts and leaves only the content-addressed object', async () => {
    const { store, options, commands } = openStore()
    const bytes = patternedBytes(20 * MiB + 123, 4)
    const ref = await store.putStream(chunksOf(bytes, MiB))
    expect(ref).toEqual({ sha256: sha256Hex(bytes), size: bytes.byteLength })
    expect(commands.filter((name) => name === 'UploadPartCommand')).toHaveLength(3)
    expect(commands).toContain('CompleteMultipartUploadCommand')
    expect(commands).toContain('CopyObjectCommand')
    expect(await listKeys(options.prefix!)).toEqual([`${options.prefix}${ref.sha256}`])
    expect(sha256Hex(await collectBytes(await store.getStream(ref.sha256)))).toBe(ref.sha256)
    expect((await store.get(ref.sha256))?.byteLength).toBe(bytes.byteLength)

    // The same bytes again: the temporary copy is dropped, the stored object stays.
    commands.length = 0
    expect(await store.putStream(chunksOf(bytes, 3 * MiB))).toEqual(ref)
    expect(commands).not.toContain('CopyObjectCommand')
    expect(await listKeys(options.prefix!)).toEqual([`${options.prefix}${ref.sha256}`])
    await store.close()
  })

  it('stores a stream that fits one part with a single PutObject', async () => {
    const { store, options, commands } = openStore()
    const bytes = patternedBytes(2 * MiB, 5)
    const ref = await store.putStream(chunksOf(bytes, 64 * 1024))
    // (The List… commands are the background collection of old incoming/ objects.)
    expect(commands.filter((name) => !name.startsWith('List'))).toEqual(['HeadObjectCommand', 'GetObjectCommand', 'PutObjectCommand'])
    expect(sameBytes(await readRaw(`${options.prefix}${ref.sha256}`), bytes)).toBe(true)
    const empty = await store.putStream(chunksOf(new Uint8Array(), 1))
    expect(empty).toEqual({ sha256: sha256Hex(new Uint8Array()), size: 0 })
    expect(await store.get(empty.sha256)).toEqual(new Uint8Array())
    await store.close()
  })

  it('abandons the multipart upload when the source fails, leaving nothing behind', async () => {
    const { store, options, commands } = openStore()
    const broken = new Error('source failed')
    async function* failingSource(): AsyncGenerator<Uint8Array> {
      yield patternedBytes(9 * MiB, 6)
      throw broken
    }
    await expect(store.putStream(failingSource())).rejects.toBe(broken)
    expect(commands).toContain('AbortMultipartUploadCommand')
    expect(await listKeys(options.prefix!)).toEqual([])
    await store.close()
  })

  it('reports an unreachable endpoint as PortUnavailableError', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, maxAttempts: 1, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } })
    const store = new S3BlobStore({ bucket: 'cairn-test', client })
    const digest = sha256Hex('x')
    await expect(store.get(digest)).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(store.has(digest)).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(store.put(new Uint8Array([1]))).rejects.toBeInstanceOf(PortUnavailableError)
    client.destroy()
  })

  it('refuses every call once closed', async () => {
    const { store } = openStore()
    await store.close()
    await expect(store.has(sha256Hex('z'))).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('reports a missing bucket as PortUnavailableError, never as an absent blob', async () => {
    const store = new S3BlobStore({ ...s3.storeOptions(), bucket: 'no-such-bucket' })
    const digest = sha256Hex('anything')
    await expect(store.has(digest)).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(store.get(digest)).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(store.getStream(digest)).rejects.toBeInstanceOf(PortUnavailableError)
    await expect(store.put(new Uint8Array([1]))).rejects.toBeInstanceOf(PortUnavailableError)
    await store.close()
  })

  it('still writes when S3 refuses to look (HeadObject 403 without s3:ListBucket)', async () => {
    const { client, commands } = recordingClient()
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'HeadObjectCommand') return next(args)
        throw Object.assign(new Error('Forbidden'), { name: 'Forbidden', $metadata: { httpStatusCode: 403 } })
      },
      { step: 'initialize', name: 'refuseHeadObject' },
    )
    const options = s3.storeOptions()
    const store = new S3BlobStore({ ...options, client })
    const bytes = patternedBytes(500, 9)
    const ref = await store.put(bytes)
    expect(await readRaw(`${options.prefix}${ref.sha256}`)).toEqual(bytes)
    expect(commands).toContain('PutObjectCommand')
    // Asking whether it is there is what needs the permission: that stays an error, not a guess.
    await expect(store.has(ref.sha256)).rejects.toBeInstanceOf(PortUnavailableError)
    await store.close()
  })

  it('collects completed incoming/ objects a crash left, once older than incomingRetentionMs', async () => {
    const options = s3.storeOptions()
    const raw = s3.rawClient()
    const leftover = `${options.prefix}incoming/0b0e5e0e-crashed-between-copy-and-delete`
    await raw.send(new PutObjectCommand({ Bucket: s3.bucket, Key: leftover, Body: patternedBytes(100, 3) }))
    const store = new S3BlobStore(options)
    expect(await store.collectIncoming()).toBe(0) // younger than a day: maybe still in use
    expect(await listKeys(options.prefix!)).toEqual([leftover])
    // S3 times objects to the second, so an object can look up to a second older than it is: the
    // retention stays above that (the restarted host's own in-flight upload must never qualify),
    // and the leftover is aged past both before a restarted host's first streamed put collects.
    await new Promise((resolve) => setTimeout(resolve, 2600))
    // s3rver keeps keys as files and removes a folder the moment its last file is deleted; a blob
    // already stored keeps the prefix's folder from vanishing under the put that races the collection.
    const kept = await store.put(patternedBytes(10, 5))
    const restarted = new S3BlobStore({ ...options, incomingRetentionMs: 1500 })
    const ref = await restarted.putStream(chunksOf(patternedBytes(1000, 4), 100))
    const expected = [`${options.prefix}${kept.sha256}`, `${options.prefix}${ref.sha256}`].sort()
    await eventually(async () => expect((await listKeys(options.prefix!)).sort()).toEqual(expected))
    await store.close()
    await restarted.close()
  })

  it('sends nothing before first use and leaves an injected client open', async () => {
    const { client, commands } = recordingClient()
    const store = new S3BlobStore({ ...s3.storeOptions(), client })
    expect(commands).toEqual([])
    await store.close()
    expect(await new S3BlobStore({ ...s3.storeOptions(), client }).has(sha256Hex('y'))).toBe(false)
    client.destroy()
  })
})

function openStore() {
  const options = s3.storeOptions()
  const { client, commands } = recordingClient()
  return { store: new S3BlobStore({ ...options, client }), options, commands }
}

/** A client of the local server that records the name of every command sent. */
function recordingClient(): { client: S3Client; commands: string[] } {
  const client = s3.rawClient()
  const commands: string[] = []
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(context.commandName ?? 'unknown')
      return next(args)
    },
    { step: 'initialize', name: 'recordCommands' },
  )
  return { client, commands }
}

/** Retry an async check until it passes (background work landing), for up to two seconds. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 2000
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}

async function readRaw(key: string): Promise<Uint8Array> {
  const object = await s3.rawClient().send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))
  return object.Body!.transformToByteArray()
}

async function listKeys(prefix: string): Promise<string[]> {
  const listed = await s3.rawClient().send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))
  return (listed.Contents ?? []).map((object) => object.Key!).sort()
}

/** Byte equality without vitest's element-by-element diffing (slow on megabytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
