import { describe, expect, it } from 'vitest'
import { Binary, MongoNetworkError, ObjectId } from 'mongodb'
import { sha256Hex } from '../../core/digest/sha256.js'
import { BlobIntegrityError, PortUnavailableError } from '../../ports/errors.js'
import { GridFsBlobStore } from './gridfs-blob-store.js'
import { FakeMongoServer } from './testing/index.js'
import { chunksOf, collectBytes, patternedBytes } from '../shared/test-bytes.js'

// The real driver's GridFSBucket runs over the fake: these tests exercise GridFS as it ships.
const CHUNK = 1024

function openBlobs() {
  const server = new FakeMongoServer()
  return { server, blobs: new GridFsBlobStore({ client: server.client(), chunkSizeBytes: CHUNK }) }
}

describe('GridFsBlobStore', () => {
  it('connects on first use only', async () => {
    const { server, blobs } = openBlobs()
    expect(server.commands).toEqual([])
    await blobs.has(sha256Hex('x'))
    expect(server.commands[0]?.name).toBe('connect')
  })

  it('stores a blob as one GridFS file named by its SHA-256 and reads it back verified', async () => {
    const { server, blobs } = openBlobs()
    const bytes = patternedBytes(5000, 1)
    const ref = await blobs.put(bytes)
    expect(ref).toEqual({ sha256: sha256Hex(bytes), size: 5000 })
    // Read the backend directly: one files document, ceil(5000 / 1024) chunks.
    expect(server.documents('cairn.blobs.files')).toMatchObject([{ filename: ref.sha256, length: 5000, chunkSize: CHUNK }])
    expect(server.documents('cairn.blobs.chunks')).toHaveLength(5)
    expect(await blobs.get(ref.sha256)).toEqual(bytes)
    expect(await collectBytes(await blobs.getStream(ref.sha256))).toEqual(bytes)
    expect(await blobs.has(ref.sha256)).toBe(true)
  })

  it('puts idempotently: the same bytes again upload nothing', async () => {
    const { server, blobs } = openBlobs()
    const bytes = patternedBytes(3000, 2)
    await blobs.put(bytes)
    const inserts = server.commandsNamed('insertOne').length
    await blobs.put(bytes)
    expect(server.commandsNamed('insertOne')).toHaveLength(inserts)
    expect(server.documents('cairn.blobs.files')).toHaveLength(1)
  })

  it('tolerates concurrent duplicate puts: either copy reads back', async () => {
    const { blobs } = openBlobs()
    const bytes = patternedBytes(4000, 3)
    const [a, b] = await Promise.all([blobs.put(bytes), blobs.put(bytes)])
    expect(a).toEqual(b)
    expect(await blobs.get(a.sha256)).toEqual(bytes)
  })

  it('streams in under a temporary name and renames to the hash, or drops a duplicate', async () => {
    const { server, blobs } = openBlobs()
    const bytes = patternedBytes(10_000, 4)
    const ref = await blobs.putStream(chunksOf(bytes, 777))
    expect(ref).toEqual({ sha256: sha256Hex(bytes), size: 10_000 })
    expect(server.documents('cairn.blobs.files').map((file) => file['filename'])).toEqual([ref.sha256])
    expect(server.commandsNamed('updateOne', 'cairn.blobs.files')[0]?.args[1]).toEqual({ $set: { filename: ref.sha256 } })
    expect(await blobs.putStream(chunksOf(bytes, 5000))).toEqual(ref)
    expect(server.documents('cairn.blobs.files').map((file) => file['filename'])).toEqual([ref.sha256])
    expect(server.documents('cairn.blobs.chunks')).toHaveLength(10)
    expect(await blobs.get(ref.sha256)).toEqual(bytes)
  })

  it('detects bytes changed at rest: get throws, getStream fails at its end', async () => {
    const { server, blobs } = openBlobs()
    const ref = await blobs.put(patternedBytes(3000, 5))
    server.tamper('cairn.blobs.chunks', { n: 1 }, (chunk) => ({ ...chunk, data: new Binary(new Uint8Array(CHUNK).fill(0)) }))
    await expect(blobs.get(ref.sha256)).rejects.toBeInstanceOf(BlobIntegrityError)
    let chunksRead = 0
    const reading = (async () => {
      for await (const _chunk of (await blobs.getStream(ref.sha256))!) chunksRead += 1
    })()
    await expect(reading).rejects.toBeInstanceOf(BlobIntegrityError)
    expect(chunksRead).toBe(3)
  })

  it('treats a missing chunk as damage too', async () => {
    const { server, blobs } = openBlobs()
    const ref = await blobs.put(patternedBytes(3000, 6))
    await server.client().db('cairn').collection('blobs.chunks').deleteOne({ n: 1 })
    await expect(blobs.get(ref.sha256)).rejects.toBeInstanceOf(BlobIntegrityError)
  })

  it('answers undefined or false for absent and malformed addresses', async () => {
    const { blobs } = openBlobs()
    expect(await blobs.get(sha256Hex('absent'))).toBeUndefined()
    expect(await blobs.getStream(sha256Hex('absent'))).toBeUndefined()
    expect(await blobs.has('not-a-digest')).toBe(false)
  })

  it('reports driver failures as PortUnavailableError', async () => {
    const { server, blobs } = openBlobs()
    const ref = await blobs.put(patternedBytes(100, 7))
    server.failNext('find', new MongoNetworkError('connection reset'), { target: 'cairn.blobs.files' })
    await expect(blobs.get(ref.sha256)).rejects.toBeInstanceOf(PortUnavailableError)
    server.failNext('insertOne', new MongoNetworkError('connection reset'), { target: 'cairn.blobs.chunks' })
    await expect(blobs.put(patternedBytes(100, 8))).rejects.toBeInstanceOf(PortUnavailableError)
  })

  it('writes blobs with majority write concern and finds them with majority reads', async () => {
    const { server, blobs } = openBlobs()
    const ref = await blobs.putStream(chunksOf(patternedBytes(3000, 5), 1000))
    const majority = { writeConcern: { w: 'majority' } }
    for (const insert of server.commandsNamed('insertOne')) expect(insert.args[1]).toMatchObject(majority)
    expect(server.commandsNamed('updateOne', 'cairn.blobs.files')[0]?.args[2]).toEqual(majority)
    server.commands.length = 0
    expect(await blobs.has(ref.sha256)).toBe(true)
    expect(server.commandsNamed('find', 'cairn.blobs.files')[0]?.args[1]).toMatchObject({ readConcern: { level: 'majority' } })
  })

  it('collects incoming/ uploads a failed rename or a crash left behind, once they are old enough', async () => {
    const { server, blobs } = openBlobs()
    server.failNext('updateOne', new MongoNetworkError('connection reset'), { target: 'cairn.blobs.files' })
    server.failNext('deleteOne', new MongoNetworkError('connection reset'), { target: 'cairn.blobs.files' })
    await expect(blobs.putStream(chunksOf(patternedBytes(3000, 6), 1000))).rejects.toBeInstanceOf(PortUnavailableError)
    // A host that died mid-stream: chunks, and never a files document.
    const crashed = new ObjectId(ObjectId.generate(Math.floor(Date.now() / 1000) - 7200))
    await server.client().db('cairn').collection('blobs.chunks').insertOne({ files_id: crashed, n: 0, data: new Binary(new Uint8Array(10)) })
    expect(server.documents('cairn.blobs.files').map((file) => String(file['filename']))).toEqual([expect.stringMatching(/^incoming\//)])
    expect(await blobs.collectIncoming()).toBe(0) // younger than a day: maybe still being written
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(await blobs.collectIncoming(1)).toBe(2)
    expect(server.documents('cairn.blobs.files')).toEqual([])
    expect(server.documents('cairn.blobs.chunks')).toEqual([])
  })

  it("collects old incoming/ uploads at a process's first streamed put", async () => {
    const server = new FakeMongoServer()
    const first = new GridFsBlobStore({ client: server.client(), chunkSizeBytes: CHUNK })
    server.failNext('updateOne', new MongoNetworkError('connection reset'), { target: 'cairn.blobs.files' })
    server.failNext('deleteOne', new MongoNetworkError('connection reset'), { target: 'cairn.blobs.files' })
    await expect(first.putStream(chunksOf(patternedBytes(3000, 6), 1000))).rejects.toBeInstanceOf(PortUnavailableError)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const restarted = new GridFsBlobStore({ client: server.client(), chunkSizeBytes: CHUNK, incomingRetentionMs: 1 })
    const ref = await restarted.putStream(chunksOf(patternedBytes(3000, 7), 1000))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(server.documents('cairn.blobs.files').map((file) => file['filename'])).toEqual([ref.sha256])
  })
})
