import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeKeyStoreConformance } from '../../conformance/key-store-conformance.js'
import { eachTempDir, makeTempDir } from '../../conformance/support/temp-dir.js'
import { PortUnavailableError } from '../../ports/errors.js'
import { MemoryStore } from '../memory/memory-store.js'
import { SqliteStore } from '../sqlite/sqlite-store.js'
import { KEY_RING_DOCUMENT, SIGNING_KEYS_COLLECTION, StoreKeyStore } from './store-key-store.js'

const kek = randomBytes(32)

describeKeyStoreConformance({ name: 'keys=store (MemoryStore, encrypted)', create: async () => new StoreKeyStore({ store: new MemoryStore(), keyEncryptionKey: kek }) })
describeKeyStoreConformance({
  name: 'keys=store (SqliteStore, plain)',
  create: async () => {
    const dir = await makeTempDir('cairn-store-keys-')
    const file = join(dir.path, 'store.sqlite')
    const stores: SqliteStore[] = []
    const open = () => {
      const store = new SqliteStore(file)
      stores.push(store)
      return new StoreKeyStore({ store })
    }
    return {
      keys: open(),
      reopen: async () => open(),
      destroy: async () => {
        for (const store of stores) await store.close()
        await dir.remove()
      },
    }
  },
})

describe('StoreKeyStore', () => {
  const dir = eachTempDir('cairn-store-keys-')

  it('lets hosts sharing one store agree on one current key and lose none when they race', async () => {
    const store = new SqliteStore(join(dir().path, 'shared.sqlite'))
    // Each host has its own SqliteStore connection and its own key ring over the same database.
    const connections = Array.from({ length: 4 }, () => new SqliteStore(join(dir().path, 'shared.sqlite')))
    const hosts = connections.map((connection) => new StoreKeyStore({ store: connection, refreshMs: 0 }))
    const first = await Promise.all(hosts.map((keys) => keys.current('RS256')))
    expect(new Set(first.map((key) => key.kid)).size).toBe(1)
    const rotated = await Promise.all(hosts.flatMap((keys) => [keys.rotate('ES256', 'proof'), keys.rotate('ES256', 'proof')]))
    const currents = await Promise.all(hosts.map((keys) => keys.current('ES256', 'proof')))
    expect(new Set(currents.map((key) => key.kid)).size).toBe(1)
    const published = (await new StoreKeyStore({ store }).jwks('proof')).keys.map((jwk) => jwk.kid)
    expect(new Set(published)).toEqual(new Set(rotated.map((key) => key.kid)))
    expect(published).toHaveLength(rotated.length)
    for (const connection of [store, ...connections]) await connection.close()
  }, 30_000)

  it('keeps private keys encrypted at rest with the key-encryption key, and refuses to sign without the right one', async () => {
    const store = new MemoryStore()
    const key = await new StoreKeyStore({ store, keyEncryptionKey: Buffer.from(kek).toString('base64url') }).current('EdDSA')
    const stored = await store.get(SIGNING_KEYS_COLLECTION, KEY_RING_DOCUMENT)
    const text = JSON.stringify(stored)
    expect(text).not.toMatch(/"d"/)
    expect(text).toContain('"jwe"')
    expect(await new StoreKeyStore({ store, keyEncryptionKey: Buffer.from(kek).toString('base64') }).current('EdDSA')).toMatchObject({ kid: key.kid })
    await expect(new StoreKeyStore({ store, keyEncryptionKey: randomBytes(32) }).current('EdDSA')).rejects.toThrow(/another key-encryption key/)
    await expect(new StoreKeyStore({ store }).current('EdDSA')).rejects.toBeInstanceOf(PortUnavailableError)
    expect(() => new StoreKeyStore({ store, keyEncryptionKey: 'too-short' })).toThrow(/32 bytes/)
  })

  it('encrypts keys it finds in the clear once a key-encryption key is configured and the ring next changes', async () => {
    const store = new MemoryStore()
    const plain = await new StoreKeyStore({ store }).current('ES256')
    expect(JSON.stringify(await store.get(SIGNING_KEYS_COLLECTION, KEY_RING_DOCUMENT))).toMatch(/"d"/)
    const encrypting = new StoreKeyStore({ store, keyEncryptionKey: kek })
    expect((await encrypting.current('ES256')).kid).toBe(plain.kid)
    await encrypting.current('EdDSA')
    expect(JSON.stringify(await store.get(SIGNING_KEYS_COLLECTION, KEY_RING_DOCUMENT))).not.toMatch(/"d"/)
  })

  it('reads a ring of another format, or a key of an algorithm it does not sign with, as damaged, naming the field, and writes nothing', async () => {
    for (const [ring, field] of [
      [{ format: 'cairn.keys.v1', keys: [] }, 'format'],
      [{ format: 'cairn.keys.v2', keys: [{ kid: 'k', alg: 'HS256', purpose: 'token', createdAt: '2026-01-01T00:00:00.000Z', jwk: { kty: 'oct', k: 'c2VjcmV0' } }] }, 'keys.0.alg'],
      [{ format: 'cairn.keys.v2', keys: [{ alg: 'ES256', purpose: 'token', createdAt: '2026-01-01T00:00:00.000Z' }] }, 'keys.0.kid'],
    ] as const) {
      const store = new MemoryStore()
      await store.declare([{ name: SIGNING_KEYS_COLLECTION }])
      await store.commit([{ kind: 'put', collection: SIGNING_KEYS_COLLECTION, key: KEY_RING_DOCUMENT, value: ring, expect: { kind: 'absent' } }])
      const refused = new StoreKeyStore({ store }).current('ES256')
      await expect(refused).rejects.toBeInstanceOf(PortUnavailableError)
      await expect(refused).rejects.toThrow(new RegExp(`damaged or of an unknown format .*${field.replaceAll('.', '\\.')}`))
      expect((await store.get(SIGNING_KEYS_COLLECTION, KEY_RING_DOCUMENT))?.version).toBe(1)
    }
  })
})
