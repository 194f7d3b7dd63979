/**
 * The seal and Connect routes behind the real authentication boundary: the SDK asset seal needs a
 * session (401 without), Connect record/seal/verify need a bearer token with their scope (401
 * without a token, 403 without the scope), and a session's asset seal names its owner.
 */
import * as E from 'fp-ts/lib/Either.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { pngFile } from '../../../conformance/proof/payloads.js'
import { bodyOf, createOidcTestWorld, type OidcTestWorld, type SignedIn } from '../../../hosts/http/oidc-test-support.js'
import type { Credentials } from '../../auth/credentials.js'
import { operationsById } from '../../contract/operations/index.js'
import { oidcUseCases } from '../../oidc/index.js'
import { collections } from '../../usecases/collections.js'
import { executeOperation, type OperationEnvironment } from '../../usecases/execute-operation.js'
import type { OperationId } from '../../contract/operations/index.js'
import { proofUseCases } from './index.js'

let world: OidcTestWorld
let ada: SignedIn
let env: OperationEnvironment

const call = (operationId: OperationId, body: unknown, credentials: Credentials) =>
  executeOperation(operationsById.get(operationId)!, { params: {}, query: {}, body, credentials }, env)

const statusOf = (reply: Awaited<ReturnType<typeof call>>) => (E.isLeft(reply) ? reply.left._tag : 'ok')

beforeAll(async () => {
  world = await createOidcTestWorld()
  await world.deps.store.declare(collections)
  env = { deps: world.deps, authenticator: world.authenticator, useCases: { ...oidcUseCases, ...proofUseCases } }
  ada = await world.signIn('ada')
})

const upload = { file: { bytes: pngFile([new TextEncoder().encode('owned')]), filename: 'owned.png', mimeType: 'image/png' } }

async function tokenWith(scopes: string[]): Promise<string> {
  const reply = await world.call('createAgentToken', { body: { clientId: 'ci', scopes, expiresIn: 600 }, credentials: { sessionCookie: ada.cookie } })
  return bodyOf<{ accessToken: string }>(reply).accessToken
}

describe('seal and Connect behind the authentication boundary', () => {
  it('the SDK asset seal needs a session and names its owner', async () => {
    expect(statusOf(await call('sealOwnedAsset', upload, {}))).toBe('Unauthenticated')
    const body = bodyOf<{ kind: string; manifest: { links: { verify: string } } }>(await call('sealOwnedAsset', upload, { sessionCookie: ada.cookie }))
    expect(body.kind).toBe('proof-object')
    expect(body.manifest.links.verify).toMatch(/\/verify\/[0-9a-f]{20}$/)
  })

  it('Connect routes need a bearer token carrying their scope', async () => {
    const recordOnly = await tokenWith(['cairn:record'])
    const all = await tokenWith(['cairn:record', 'cairn:seal', 'cairn:verify'])
    const sealBody = { bytesB64u: Buffer.from('hello').toString('base64url'), filename: 'hello.txt' }
    expect(statusOf(await call('connectSeal', sealBody, {}))).toBe('Unauthenticated')
    expect(statusOf(await call('connectSeal', sealBody, { bearerToken: recordOnly }))).toBe('Forbidden')
    expect(statusOf(await call('connectVerify', upload, { bearerToken: recordOnly }))).toBe('Forbidden')
    expect(statusOf(await call('connectRecord', { sha256: 'b'.repeat(64) }, { bearerToken: recordOnly }))).toBe('ok')
    expect(statusOf(await call('connectSeal', sealBody, { bearerToken: all }))).toBe('ok')
    expect(bodyOf<{ ok: boolean; errors: string[] }>(await call('connectVerify', upload, { bearerToken: all }))).toMatchObject({ ok: false, errors: [expect.stringMatching(/^No proof found/)] })
  })
})
