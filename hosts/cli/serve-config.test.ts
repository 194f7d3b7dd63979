import { describe, expect, it } from 'vitest'
import { readServeConfig } from './serve-config.js'

describe('cairn serve configuration', () => {
  it('defaults to 127.0.0.1:8787', () => {
    expect(readServeConfig([], {})).toEqual({ host: '127.0.0.1', port: 8787, baseUrl: 'http://127.0.0.1:8787', baseUrlGiven: false, storage: {} })
  })

  it('reads HOST, PORT and CAIRN_BASE_URL, and flags win', () => {
    const env = { HOST: '0.0.0.0', PORT: '9000', CAIRN_BASE_URL: 'https://cairn.example/' }
    expect(readServeConfig([], env)).toEqual({ host: '0.0.0.0', port: 9000, baseUrl: 'https://cairn.example', baseUrlGiven: true, storage: {} })
    expect(readServeConfig(['--port', '9100', '--base-url', 'https://b.example/cairn'], env)).toEqual({
      host: '0.0.0.0', port: 9100, baseUrl: 'https://b.example/cairn', baseUrlGiven: true, storage: {},
    })
  })

  it('knows whether the base URL was given or derived (an empty CAIRN_BASE_URL is not given)', () => {
    expect(readServeConfig(['--port', '0'], { CAIRN_BASE_URL: '' })).toMatchObject({ port: 0, baseUrl: 'http://127.0.0.1:0', baseUrlGiven: false })
  })

  it('reads storage and configuration choices', () => {
    const env = { CAIRN_DATA_DIR: '/var/lib/cairn', CAIRN_BLOBS: 's3://b/p', CAIRN_CONFIG: '/etc/cairn.json' }
    expect(readServeConfig(['--store', 'mongodb://db/?replicaSet=rs0'], env)).toMatchObject({
      storage: { store: 'mongodb://db/?replicaSet=rs0', blobs: 's3://b/p', dataDir: '/var/lib/cairn' },
      configFile: '/etc/cairn.json',
    })
  })

  it('reads the key-encryption key and the token-key rotation period from the environment', () => {
    const env = { CAIRN_KEY_ENCRYPTION_KEY: 'a2V5', CAIRN_KEY_ROTATION_DAYS: '7' }
    expect(readServeConfig([], env).storage).toEqual({ keyEncryptionKey: 'a2V5', keyRotationDays: 7 })
    expect(readServeConfig([], { CAIRN_KEY_ROTATION_DAYS: '0' }).storage).toEqual({ keyRotationDays: 0 })
    expect(() => readServeConfig([], { CAIRN_KEY_ROTATION_DAYS: 'weekly' })).toThrow(/CAIRN_KEY_ROTATION_DAYS/)
  })

  it('refuses a bad port, a bad base URL and unknown flags with a plain sentence', () => {
    expect(() => readServeConfig(['--port', 'eighty'], {})).toThrow(/Port must be a number/)
    expect(() => readServeConfig(['--port', '70000'], {})).toThrow(/Port must be a number/)
    expect(() => readServeConfig([], { CAIRN_BASE_URL: 'ftp://x' })).toThrow(/base URL/)
    expect(() => readServeConfig(['--nope'], {})).toThrow()
  })

  it('reads transport limits from flags and the environment (flags win), and refuses non-numbers', () => {
    const env = { CAIRN_HEADERS_TIMEOUT_MS: '4000', CAIRN_MAX_CONNECTIONS: '50', CAIRN_MAX_IN_FLIGHT_BYTES: '1048576' }
    expect(readServeConfig(['--max-connections', '200', '--request-timeout-ms', '30000', '--keep-alive-timeout-ms', '2000'], env)).toMatchObject({
      serverLimits: { headersTimeoutMs: 4000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 2000, maxConnections: 200 },
      inFlightBytes: 1048576,
    })
    expect(() => readServeConfig(['--max-connections', 'lots'], {})).toThrow('--max-connections must be a whole number of at least 1, not "lots"')
    expect(() => readServeConfig([], { CAIRN_REQUEST_TIMEOUT_MS: '0' })).toThrow(/--request-timeout-ms must be/)
  })
})
