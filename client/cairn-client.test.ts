/**
 * `cairn/client` against a real Cairn, in-process (`cairn.fetch`) and over HTTP: typed calls and
 * the error union, sign-in with a non-extractable ID key kept in a key file, sealing and offline
 * verification, signed runtime answers verified before they are handed over (and withheld when
 * tampered with), ProofConsent challenges the server accepts.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCairn, type Cairn } from '../hosts/library/create-cairn.js'
import { PINNED_TIME, pinnedOptions } from '../hosts/http/test-support.js'
import { startHttpServer, type RunningServer } from '../hosts/http/start-http-server.js'
import { APP, RUNTIME_APP_SECRETS, runtimeDeployment } from '../hosts/http/runtime-test-support.js'
import { createCairnClient, fetchTrust, fileKeyKeeper, loadOrCreateIdKey, portableArtifactOf, sealFile, signIn, signProofConsentChallenge, unwrap, verifySealedFile, type CairnClient } from './index.js'

for (const mode of ['in-process', 'over HTTP'] as const) {
  describe(`cairn/client ${mode}`, () => {
    let cairn: Cairn
    let server: RunningServer | undefined
    let dir: string
    let client: CairnClient
    let baseUrl = 'http://127.0.0.1:8787'

    beforeAll(async () => {
      let handler: Cairn['nodeHandler'] | undefined
      if (mode === 'over HTTP') {
        server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
        baseUrl = server.url
      }
      // Agent tokens of this test act as the runtime application only because its client opts in.
      const deployment = runtimeDeployment()
      const clients = deployment.clients?.map((c) => (c.clientId === APP ? { ...c, agentTokensActAsApplication: true } : c))
      cairn = createCairn(pinnedOptions({ baseUrl, deployment: { ...deployment, ...(clients ? { clients } : {}) } }))
      handler = cairn.nodeHandler
      dir = await mkdtemp(join(tmpdir(), 'cairn-client-'))
      client = createCairnClient({ baseUrl, now: () => PINNED_TIME, ...(mode === 'in-process' ? { fetch: (request) => cairn.fetch(request) } : {}) })
    })
    afterAll(async () => {
      await server?.close()
      await cairn.close()
      await rm(dir, { recursive: true, force: true })
    })

    it('calls operations typed from the contract, and answers refusals as values', async () => {
      const jwks = await client.call('getJwks')
      expect(jwks.ok && jwks.value.keys.length).toBeGreaterThan(0)
      const bad = await client.call('verifyClaim', { body: { sha256: 'not-hex' } })
      expect(bad).toEqual({ ok: false, error: expect.objectContaining({ _tag: 'InvalidInput', status: 400, message: expect.stringContaining('sha256') }) })
      const missing = await client.call('getLoginBootstrap', { params: { username: 'nobody-here' } })
      expect(missing.ok && (missing.value as { exists?: boolean }).exists).toBe(false)
      expect(await client.call('getExecution', { params: { applicationId: APP, executionId: 'exe_unknown' } })).toMatchObject({ ok: false, error: { _tag: 'Unauthenticated', status: 401 } })
      // A Session operation without a session is refused, not thrown.
      expect(await client.call('sealOwnedAsset', { body: { file: { bytes: new Uint8Array([1]), filename: 'a.txt' } } })).toMatchObject({ ok: false, error: { _tag: 'Unauthenticated' } })
    })

    it('signs in with a non-extractable ID key kept in a 0600 key file, again with the same key', async () => {
      const keyFile = join(dir, 'ada.key')
      const key = await loadOrCreateIdKey(fileKeyKeeper(keyFile))
      expect(key.privateKey.extractable).toBe(false)
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
      const first = unwrap(await signIn(client, key, { username: 'ada', displayName: 'Ada', localUid: 'laptop' }))
      expect(first.session.username).toBe('ada')
      expect(client.credentials.session).toEqual(expect.any(String))
      const again = await loadOrCreateIdKey(fileKeyKeeper(keyFile))
      expect(again.keyId).toBe(key.keyId)
      const second = unwrap(await signIn(client, again, { username: 'ada', displayName: 'Ada', localUid: 'laptop' }))
      expect(second.session.uid).toBe(first.session.uid)
      expect(JSON.parse(await readFile(keyFile, 'utf8'))).toMatchObject({ kty: 'EC', crv: 'P-256' })
    })

    it('seals an owned file and verifies it offline against pinned keys; a changed byte fails', async () => {
      const trust = await fetchTrust(client)
      const sealed = unwrap(await sealFile(client, { bytes: new TextEncoder().encode('{"note":"hello"}'), filename: 'note.json', mimeType: 'application/json' }, { owned: true }))
      const verdict = await verifySealedFile(sealed.bytes, trust)
      expect(verdict).toMatchObject({ ok: true, kind: 'proof-object', details: { owner: { username: 'ada' } } })
      const tampered = sealed.bytes.slice()
      tampered[tampered.indexOf(0x68)] = 0x48 // "hello" → "Hello"
      expect((await verifySealedFile(tampered, trust)).ok).toBe(false)

      // The sealed proof object and a ProofConsent challenge signed by the same non-extractable key buy a runtime token.
      const key = await loadOrCreateIdKey(fileKeyKeeper(join(dir, 'ada.key')))
      const challenge = await signProofConsentChallenge(key, { audience: APP, scopes: ['cairn:runtime.read'], statement: 'Allow Notes to read for ada' }, client.now())
      // Only the application, authenticated by its secret, may exchange: without it, refused.
      expect(await client.call('exchangeProofAuthority', { body: { applicationId: APP, artifact: portableArtifactOf(sealed), challenge, scopes: ['cairn:runtime.read'] } })).toMatchObject({ ok: false, error: { _tag: 'Unauthenticated' } })
      client.credentials.client = { clientId: APP, clientSecret: RUNTIME_APP_SECRETS[APP]! }
      const exchanged = await client.call('exchangeProofAuthority', { body: { applicationId: APP, artifact: portableArtifactOf(sealed), challenge, scopes: ['cairn:runtime.read'] } })
      expect(exchanged).toMatchObject({ ok: true, value: { applicationId: APP, grantedScopes: ['cairn:runtime.read'], artifactDigest: sealed.metadata.sealedSha256 } })
      // The same challenge again is refused: it was used.
      expect(await client.call('exchangeProofAuthority', { body: { applicationId: APP, artifact: portableArtifactOf(sealed), challenge, scopes: ['cairn:runtime.read'] } })).toMatchObject({ ok: false, error: { _tag: 'Unauthenticated' } })
    })

    it('verifies every signed runtime answer before handing it over', async () => {
      const token = unwrap(await client.call('createAgentToken', { body: { clientId: APP, scopes: ['cairn:runtime.read'], label: 'client test' } }))
      const runtime = createCairnClient({ baseUrl, now: () => PINNED_TIME, ...(mode === 'in-process' ? { fetch: (request: Request) => cairn.fetch(request) } : {}) })
      runtime.credentials.accessToken = token.accessToken
      const qualified = await runtime.call('qualifyOperations', { body: { applicationId: APP, operations: ['getJwks'] } })
      expect(qualified.ok && qualified.value.wire.results[0]).toMatchObject({ operation: 'getJwks', status: 'available' })
      // The same answer with one changed byte in its wire is withheld.
      const tampering = createCairnClient({
        baseUrl, now: () => PINNED_TIME,
        fetch: async (request) => {
          const answer = mode === 'in-process' ? await cairn.fetch(request) : await fetch(request)
          if (!request.url.endsWith('/runtime/qualify')) return answer
          return new Response((await answer.text()).replace('"available"', '"unavailable"'), { status: answer.status, headers: answer.headers })
        },
      })
      tampering.credentials.accessToken = token.accessToken
      expect(await tampering.call('qualifyOperations', { body: { applicationId: APP, operations: ['getJwks'] } })).toMatchObject({ ok: false, error: { _tag: 'Unverified' } })
      // An answer verified for another clock window is withheld too (the envelope expired).
      const late = createCairnClient({ baseUrl, now: () => PINNED_TIME + 24 * 3_600_000, ...(mode === 'in-process' ? { fetch: (request: Request) => cairn.fetch(request) } : {}) })
      late.credentials.accessToken = token.accessToken
      expect(await late.call('qualifyOperations', { body: { applicationId: APP, operations: [] } })).toMatchObject({ ok: false, error: { _tag: 'Unverified' } })
      // An answer bound to none of the audiences the caller expects is withheld, however many it names.
      expect(await runtime.call('qualifyOperations', { body: { applicationId: APP, operations: [] }, expectAudience: ['https://elsewhere.example', 'https://other.example'] })).toMatchObject({ ok: false, error: { _tag: 'Unverified' } })
      expect(await runtime.call('qualifyOperations', { body: { applicationId: APP, operations: [] }, expectAudience: ['https://elsewhere.example', APP] })).toMatchObject({ ok: true })
    })
  })
}
