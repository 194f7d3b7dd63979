/**
 * Test support for operations beyond the OpenID provider: the OIDC test world (real sessions, real
 * bearer boundary, real agent tokens) serving every built operation, plus an application's access
 * token.
 */
import { generateKeyPairSync, sign as signBytes, type KeyObject } from 'node:crypto'
import { bodyOf, clientCredentials, createOidcTestWorld, locationOf, PKCE, testDeployment, type OidcWorldOptions, type OidcTestWorld } from './oidc-test-support.js'
import type { DeploymentConfig } from '../../core/config/deployment-config.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { toBase64Url } from '../../core/encoding/base64url.js'
import { identityValue, IDENTITIES, type IdentityRecord } from '../../core/identity/identities.js'
import { jwkThumbprint } from '../../core/identity/public-key.js'
import { bindKeyOwnerWrite } from '../../core/identity/identity-keys.js'
import { sealArtifact } from '../../core/proof/seal-artifact.js'
import type { ProofAuthorityChallenge } from '../../core/runtime/proof-consent.js'
import { draftProofConsentChallenge, openSessionBody as openSessionBodyOf, signedChallenge } from '../../client/index.js'
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
export const OTHER_APP = 'org.example.other'

/** The runtime applications' client secrets: confidential clients, as a server-side application is. */
export const RUNTIME_APP_SECRETS: Readonly<Record<string, string>> = { [APP]: 'notes-secret', [OTHER_APP]: 'other-secret' }

/** The redirect URI a runtime application's own authorization-code flow comes back to. */
export const runtimeRedirectUri = (clientId: string): string => `https://${clientId}.example/callback`

/** Client credentials of a runtime application, as HTTP Basic carries them. */
export const appCredentials = (clientId: string = APP): Credentials => clientCredentials(clientId, RUNTIME_APP_SECRETS[clientId])

/** The HTTP Basic `authorization` header of a runtime application (RFC 6749 §2.3.1). */
export const appBasicAuthorization = (clientId: string = APP, secret: string = RUNTIME_APP_SECRETS[clientId] ?? ''): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`

/**
 * The test deployment plus the runtime applications `APP` and `OTHER_APP` as registered confidential
 * OAuth clients; `agentTokensActAsApplication` makes both admit their users' agent tokens.
 */
export function runtimeDeployment(options: { readonly agentTokensActAsApplication?: boolean } = {}): DeploymentConfig {
  const base = testDeployment()
  const runtimeApp = (clientId: string, name: string) => ({
    clientId, name, redirectUris: [runtimeRedirectUri(clientId)], clientSecretSha256: sha256Hex(RUNTIME_APP_SECRETS[clientId]!), firstParty: true,
    ...(options.agentTokensActAsApplication === true ? { agentTokensActAsApplication: true } : {}),
  })
  return { ...base, clients: [...(base.clients ?? []), runtimeApp(APP, 'Notes'), runtimeApp(OTHER_APP, 'Other')] }
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
  /** Their ID key is Ed25519. */
  readonly alg: 'EdDSA'
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
  call(operationId: string, input?: { body?: unknown; params?: Record<string, string>; query?: Record<string, string>; token?: string | null; credentials?: Credentials; clientAddress?: string }): ReturnType<OidcTestWorld['call']>
  /**
   * The application's access token with `scopes`, for `user` (ada unless given: a username or a
   * signed-in person), as the application obtains it: its own authorization-code + PKCE flow,
   * redeemed with its client secret.
   */
  tokenFor(scopes: readonly string[], clientId?: string, user?: string | { readonly cookie: string }): Promise<string>
  /** An agent token `ada` mints naming `clientId` (which does not make it that application). */
  agentTokenFor(scopes: readonly string[], clientId?: string): Promise<string>
  /** The deployment's JWKS, as a client fetches it. */
  jwks(): Promise<{ keys: JsonWebKey[] }>
  /** A request over HTTP to the h3 app of this world (JSON body, bearer token or a client's HTTP Basic `authorization`). */
  http(method: 'GET' | 'POST', path: string, input?: { body?: unknown; token?: string; authorization?: string; dpop?: string }): Promise<Response>
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
    executeOperation(operationsById.get(operationId)!, {
      params: input.params ?? {}, query: input.query ?? {}, body: input.body, credentials: input.credentials ?? (input.token ? { bearerToken: input.token } : {}),
      ...(input.clientAddress === undefined ? {} : { clientAddress: input.clientAddress }),
    }, env)
  const agentToken = async (scopes: readonly string[], clientId: string, user: { readonly cookie: string }) => {
    const created = await world.call('createAgentToken', { body: { clientId, scopes: [...scopes], label: 'runtime test' }, credentials: { sessionCookie: user.cookie } })
    return bodyOf<{ accessToken: string }>(created).accessToken
  }
  return {
    world,
    deps: world.deps,
    call,
    async tokenFor(scopes, clientId = APP, who = ada) {
      const user = typeof who !== 'string' ? who : who === 'ada' ? ada : await world.signIn(who)
      // Worlds of other areas (Twin, world…) register no runtime application: an agent token of the
      // user then names it, acting for the user everywhere but the runtime.
      if (RUNTIME_APP_SECRETS[clientId] === undefined || !world.deps.config.deployment.clients?.some((client) => client.clientId === clientId)) {
        return agentToken(scopes, clientId, user)
      }
      const redirectUri = runtimeRedirectUri(clientId)
      const query = { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: scopes.join(' '), state: 'runtime-test', code_challenge: PKCE.challenge, code_challenge_method: 'S256' }
      const code = locationOf(await world.call('authorize', { query, credentials: { sessionCookie: user.cookie } })).searchParams.get('code')
      if (code === null) throw new Error(`the authorization of ${clientId} for ${scopes.join(' ')} was refused`)
      const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: PKCE.verifier }
      return bodyOf<{ access_token: string }>(await world.call('exchangeToken', { body: form, credentials: appCredentials(clientId) })).access_token
    },
    agentTokenFor: (scopes, clientId = APP) => agentToken(scopes, clientId, ada),
    async jwks() {
      return bodyOf<{ keys: JsonWebKey[] }>(await world.call('getJwks'))
    },
    identityHolder: (username) => createIdentityHolder(world.deps, username),
    http(method, path, input = {}) {
      const app = createHttpApp({ env })
      const headers: Record<string, string> = {}
      if (input.token) headers.authorization = `Bearer ${input.token}`
      if (input.authorization) headers.authorization = input.authorization
      if (input.dpop) headers.dpop = input.dpop
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

/**
 * The body of `openAuthoritySession` for `holder`: their identity artifact, a fresh challenge
 * consenting to `consent` for `audience` (default: the application), no required namespaces.
 */
export function openSessionBody(holder: IdentityHolder, input: {
  readonly applicationId: string; readonly consent: readonly string[]; readonly audience?: string; readonly subjectSource?: PortableArtifact; readonly rails?: readonly string[]
}) {
  const audience = input.audience ?? input.applicationId
  return openSessionBodyOf(
    { applicationId: input.applicationId, audience, actorSubjectId: holder.userId, identityArtifact: holder.identityArtifact, ...(input.subjectSource ? { subjectSourceArtifact: input.subjectSource } : {}), ...(input.rails ? { rails: input.rails } : {}) },
    holder.challenge({ audience, scopes: input.consent }),
  )
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
    userId, username, keyId, alg: 'EdDSA', identityArtifact, seal,
    sign: (bytes) => toBase64Url(signBytes(null, bytes, privateKey)),
    challenge: (input) => signedChallengeWith(privateKey, keyId, username, deps.clock.now(), input),
  }
}

/** A proof-authority challenge signed by an Ed25519 ID key, built as the client builds it (window: now … +5 min unless given). */
export function signedChallengeWith(
  privateKey: KeyObject, keyId: string, username: string, now: number,
  input: { audience: string; scopes: readonly string[]; statement?: string; nonce?: string; issuedAtMs?: number; expiresAtMs?: number },
): ProofAuthorityChallenge {
  const nonce = input.nonce ?? toBase64Url(new TextEncoder().encode(`nonce-${username}-${++nonces}-${now}`))
  const draft = draftProofConsentChallenge({ ...input, statement: input.statement ?? `Allow Notes to act for ${username}`, nonce }, { keyId, alg: 'EdDSA' }, now)
  return signedChallenge(draft, new Uint8Array(signBytes(null, draft.signingBytes, privateKey)))
}
