import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadDeploymentConfig } from './load-deployment-config.js'

const dir = mkdtempSync(join(tmpdir(), 'cairn-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const write = (name: string, text: string) => {
  const file = join(dir, name)
  writeFileSync(file, text)
  return file
}

describe('deployment configuration file', () => {
  it('is empty when none is named', () => {
    expect(loadDeploymentConfig(undefined)).toEqual({ clients: [], businessAccounts: [] })
  })

  it('reads the card market\'s shortest auction', () => {
    expect(loadDeploymentConfig(write('cards.json', JSON.stringify({ cards: { auctionMinSeconds: 2 } })))).toMatchObject({ cards: { auctionMinSeconds: 2 } })
  })

  it('reads clients and Business accounts', () => {
    const config = { clients: [{ clientId: 'app', redirectUris: ['https://app.example/cb'], firstParty: true }], businessAccounts: ['ada'] }
    expect(loadDeploymentConfig(write('ok.json', JSON.stringify(config)))).toEqual(config)
  })

  it('says it takes a path when given the JSON itself', () => {
    expect(() => loadDeploymentConfig(' {"clients": []}')).toThrow(/path of a JSON file, not the JSON itself/)
  })

  it('refuses a missing file, bad JSON and invalid shapes with plain sentences', () => {
    expect(() => loadDeploymentConfig(join(dir, 'missing.json'))).toThrow(/Cannot read/)
    expect(() => loadDeploymentConfig(write('bad.json', '{'))).toThrow(/not valid JSON/)
    expect(() => loadDeploymentConfig(write('comma.json', '{\n  "clients": [],\n}'))).toThrow(/not valid JSON at line 3, column 1: /)
    expect(() => loadDeploymentConfig(write('shape.json', JSON.stringify({ clients: [{ clientId: 'x' }] })))).toThrow(/redirectUris/)
  })

  it('refuses unknown members and bad values with the path of the offending field', () => {
    expect(() => loadDeploymentConfig(write('typo.json', JSON.stringify({ client: [] })))).toThrow(/does not know: config\.client \(a typo/)
    const client = { clientId: 'app', redirectUris: ['https://app.example/cb'] }
    expect(() => loadDeploymentConfig(write('nested.json', JSON.stringify({ clients: [{ ...client, redirectUri: 'x' }] })))).toThrow(/config\.clients\.0\.redirectUri/)
    expect(() => loadDeploymentConfig(write('scope.json', JSON.stringify({ clients: [{ ...client, allowedScopes: ['openid', 'cairn:recrod'] }] })))).toThrow(/config\.clients\.0\.allowedScopes\.1/)
    expect(() => loadDeploymentConfig(write('secret.json', JSON.stringify({ clients: [{ ...client, clientSecretSha256: 'abc' }] })))).toThrow(/config\.clients\.0\.clientSecretSha256/)
    expect(() => loadDeploymentConfig(write('world.json', JSON.stringify({ world: { visitorsPerMinute: 5 } })))).toThrow(/config\.world\.visitorsPerMinute/)
    expect(() => loadDeploymentConfig(write('attempt.json', JSON.stringify({ webhooks: { attemptTimeoutSeconds: 0 } })))).toThrow(/config\.webhooks\.attemptTimeoutSeconds/)
    for (const auctionMinSeconds of [0, 1.5, 30 * 24 * 3600 + 1]) {
      expect(() => loadDeploymentConfig(write('auction.json', JSON.stringify({ cards: { auctionMinSeconds } })))).toThrow(/config\.cards\.auctionMinSeconds/)
    }
  })
})
