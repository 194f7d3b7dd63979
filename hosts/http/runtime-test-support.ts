/**
 * Test support for operations beyond the OpenID provider: the OIDC test world (real sessions, real
 * bearer boundary, real agent tokens) serving every built operation, plus an application's access
 * token.
 */
import { generateKeyPairSync, sign as signBytes } from 'node:crypto'
import { bodyOf, createOidcTestWorld, testDeployment, type OidcWorldOptions, type OidcTestWorld } from './oidc-test-support.js'
import type { DeploymentConfig } from '../../core/config/deployment-config.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import { identityValue, IDENTITIES, type IdentityRecord } from '../../core/identity/identities.js'
import { jwkThumbprint } from '../../core/identity/public-key.js'
import { bindKeyOwnerWrite } from '../../core/identity/identity-keys.js'
import { sealArtifact } from '../../core/proof/seal-artifact.js'
import type { ProofAuthorityChallenge } from '../../core/runtime/proof-consent.js'
import { draftProofConsentChallenge, signedChallenge } from '../../client/index.js'
import { collections } from '../../core/usecases/collections.js'
import { ACTION_LEDGER_STREAM } from '../../core/ledger/action-ledger.js'
import { revocationStreamOf } from '../../core/runtime/revocation-head.js'
import { subjectStreamOf } from '../../core/runtime/subject-namespaces.js'
import { createHttpApp } from './create-http-app.js'
import type { Credentials } from '../../core/auth/credentials.js'
import { operationsById } from '../../core/contract/operations/index.js'
import { executeOperation, type OperationEnvironment } from '../../core/usecases/execute-operation.js'
import { useCases } from '../../core/usecases/registry.js'
import type { CoreDeps } from '../../core/usecases/use-case.js'

export const APP = 'com.example.notes'

/** The test deployment plus the runtime application `APP` as a registered OAuth client. */
export function runtimeDeployment(): DeploymentConfig {
  const base = testDeployment()
  return { ...base, clients: [...(base.clients ?? []), { clientId: APP, name: 'Notes', redirectUris: [] }, { clientId: 'org.example.other', name: 'Other', redirectUris: [] }] }
}

/** A portable sealed artifact as the runtime carries it. */
export interface PortableArtifact {
  readonly schema: 'cairn.v124.portable_sealed_artifact'
  readonly exactBytesB64u: string
  readonly filename: string
  readonly mimeType: string
  readonly artifactSha256: string
  readonly payloadSha256: string
}

/** A person with an ID key bound to their identity, holding sealed proof objects of their own. */
export interface IdentityHolder {
  readonly userId: string
  readonly username: string
  readonly keyId: string
  /** Their sealed identity proof object. */
  readonly identityArtifact: PortableArtifact
  /** Seals another file as their proof object. */
  seal(filename: string, mimeType: string, bytes: Uint8Array): Promise<PortableArtifact>
  /** Their ID key's JWS-form Ed25519 signature over `bytes`, base64url (capabilities, member consents). */
  sign(bytes: Uint8Array): string
  /** A fresh challenge signed by their ID key (window: now … +5 min unless given). */
  challenge(input: { audience: string; scopes: readonly string[]; statement?: string; nonce?: string; issuedAtMs?: number; expiresAtMs?: number }): ProofAuthorityChallenge
}

export interface RuntimeTestWorld {
  readonly world: OidcTestWorld
  readonly deps: CoreDeps
  /** Every built operation, through the full pipeline, as `token`'s bearer. */
  call(operationId: string, input?: { body?: unknown; params?: Record<string, string>; query?: Record<string, string>; token?: string | null; credentials?: Credentials }): ReturnType<OidcTestWorld['call']>
  /** The application's access token with `scopes`. */
  tokenFor(scopes: readonly string[], clientId?: string): Promise<string>
  /** The deployment's JWKS, as a client fetches it. */
  jwks(): Promise<{ keys: JsonWebKey[] }>
  /** A request over HTTP to the h3 app of this world (JSON body, bearer token). */
  http(method: 'GET' | 'POST', path: string, input?: { body?: unknown; token?: string }): Promise<Response>
  /** Every document of every collection, the action ledger and the runtime's streams, to prove a refusal wrote nothing. */
  snapshot(): Promise<string>
  /** A person (`usr_<username>`) with a bound Ed25519 ID key and a sealed identity artifact. */
  identityHolder(username: string): Promise<IdentityHolder>
}

/** @example const runtime = await createRuntimeTestWorld(); const token = await runtime.tokenFor(['cairn:runtime.read']) */
export async function createRuntimeTestWorld(options: OidcWorldOptions = {}): Promise<RuntimeTestWorld> {
  const world = await createOidcTestWorld({ deployment: runtimeDeployment(), ...options })
  await world.deps.store.declare(collections)
  const env: OperationEnvironment = { deps: world.deps, authenticator: world.authenticator, useCases }
  const ada = await world.signIn('ada')
  const call: RuntimeTestWorld['call'] = (operationId, input = {}) =>
    executeOperation(operationsById.get(operationId)!, { params: input.params ?? {}, query: input.query ?? {}, body: input.body, credentials: input.credentials ?? (input.token ? { bearerToken: input.token } : {}) }, env)
  return {
    world,
    deps: world.deps,
    call,
    async tokenFor(scopes, clientId = APP) {
      const created = await world.call('createAgentToken', { body: { clientId, scopes: [...scopes], label: 'runtime test' }, credentials: { sessionCookie: ada.cookie } })
      return bodyOf<{ accessToken: string }>(created).accessToken
    },
    async jwks() {
      return bodyOf<{ keys: JsonWebKey[] }>(await world.call('getJwks'))
    },
    identityHolder: (username) => createIdentityHolder(world.deps, username),
    http(method, path, input = {}) {
      const app = createHttpApp({ env })
      const headers: Record<string, string> = {}
      if (input.token) headers.authorization = `Bearer ${input.token}`
      if (input.body !== undefined) headers['content-type'] = 'application/json'
      return Promise.resolve(app.fetch(new Request(`https://cairn.test${path}`, { method, headers, ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }) })))
    },
    async snapshot() {
      const parts: unknown[] = []
      for (const spec of collections) {
        const index = spec.indexes?.[0]?.name
        if (index) parts.push(spec.name, (await world.deps.store.query(spec.name, { index, limit: 1000 })).items)
      }
      parts.push('ledger', (await world.deps.store.readStream(ACTION_LEDGER_STREAM, { limit: 1000 })).items)
      // the runtime's streams: every application's revocations and every person's publications
      const streams = [
        ...(world.deps.config.deployment.clients ?? []).map((client) => revocationStreamOf(client.clientId)),
        ...(await world.deps.store.query(IDENTITIES, { index: 'byCreatedAt', limit: 1000 })).items.map((doc) => subjectStreamOf(doc.key)),
      ]
      for (const stream of streams) parts.push(stream, (await world.deps.store.readStream(stream, { limit: 1000 })).items)
      return JSON.stringify(parts)
    },
  }
}

let nonces = 0

/** A person with a bound Ed25519 ID key and a sealed identity artifact, on any `deps` (conformance scenarios use it too). */
export async function createIdentityHolder(deps: CoreDeps, username: string): Promise<IdentityHolder> {
  const userId = `usr_${username}`
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const x = publicKey.export({ format: 'jwk' }).x!
  const keyId = jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x })
  const at = new Date(deps.clock.now()).toISOString()
  const existing = await deps.store.get(IDENTITIES, userId)
  const prior = existing?.value as unknown as IdentityRecord | undefined
  const record: IdentityRecord = {
    userId, username, displayName: `${username} Test`, email: null, localUid: `local-${username}`, createdAt: at, updatedAt: at,
    keys: [...(prior?.keys ?? []), { keyId, alg: 'EdDSA', publicKeyRawB64u: x, boundAt: at }],
  }
  const outcome = await deps.store.commit([
    { kind: 'put', collection: IDENTITIES, key: userId, value: identityValue(record), expect: existing ? { kind: 'version', version: existing.version } : { kind: 'absent' } },
    bindKeyOwnerWrite({ keyId, userId, boundAt: at }),
  ])
  if (!outcome.ok) throw new Error(`could not create ${username}`)
  const seal = async (filename: string, mimeType: string, bytes: Uint8Array): Promise<PortableArtifact> => {
    const owner = { userId, username, idKeyThumbprints: [keyId] }
    const sealed = await sealArtifact(deps, { filename, mimeType, bytes }, { sealKind: 'proof-object', owner, actorUserId: userId })
    if (sealed._tag === 'Left') throw new Error(sealed.left.message)
    return {
      schema: 'cairn.v124.portable_sealed_artifact', exactBytesB64u: toBase64Url(sealed.right.bytes), filename, mimeType,
      artifactSha256: sha256Hex(sealed.right.bytes), payloadSha256: sealed.right.prepared.statement.payload.sha256,
    }
  }
  const identityArtifact = await seal(`${username}-identity.json`, 'application/json', new TextEncoder().encode(JSON.stringify({ schema: 'cairn.identity_card.v1', username })))
  return {
    userId, username, keyId, identityArtifact, seal,
    sign: (bytes) => toBase64Url(signBytes(null, bytes, privateKey)),
    challenge(input) {
      const draft = draftProofConsentChallenge({ ...input, statement: input.statement ?? `Allow Notes to act for ${username}`, nonce: input.nonce ?? toBase64Url(new TextEncoder().encode(`nonce-${username}-${++nonces}-${deps.clock.now()}`)) }, { keyId, alg: 'EdDSA' }, deps.clock.now())
      return signedChallenge(draft, new Uint8Array(signBytes(null, draft.signingBytes, privateKey)))
    },
  }
}
