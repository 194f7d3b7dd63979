/**
 * Test support for the OpenID provider (core/oidc): an in-memory world with pinned clock and
 * entropy, registered test clients, signed-in test users, and a running h3 host on 127.0.0.1
 * that real OAuth clients (openid-client, jose) talk to. The world uses Cairn's real
 * authentication boundary (core/auth/cairn-authenticator.ts) with `verifyAccessToken` as its
 * bearer verifier, and real sessions (core/identity/sessions.ts), so these tests prove the
 * provider as it is composed, not as a double imagines it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { toNodeHandler } from 'h3'
import { FixedClock } from '../../adapters/memory/index.js'
import type { Authenticator } from '../../core/auth/authenticator.js'
import { createCairnAuthenticator } from '../../core/auth/cairn-authenticator.js'
import type { Principal } from '../../core/auth/principal.js'
import type { DeploymentConfig, OAuthClientConfig } from '../../core/config/deployment-config.js'
import { sha256Hex } from '../../core/digest/sha256.js'
import { identityValue, isBusinessTier, IDENTITIES, type IdentityRecord } from '../../core/identity/identities.js'
import { identityCollections, identityUseCases, newSession } from '../../core/identity/index.js'
import { sessionCookieName } from '../../core/identity/session-cookie.js'
import { oidcCollections, oidcUseCases, verifyAccessToken } from '../../core/oidc/index.js'
import type { Credentials } from '../../core/auth/credentials.js'
import { operationsById } from '../../core/contract/operations/index.js'
import type { DomainError } from '../../core/errors/domain-error.js'
import { executeOperation, type OperationEnvironment } from '../../core/usecases/execute-operation.js'
import type { CoreDeps, Reply } from '../../core/usecases/use-case.js'
import type { Either } from 'fp-ts/lib/Either.js'
import type { KeyStore } from '../../ports/key-store.js'
import type { TextGenerator } from '../../ports/text-generator.js'
import { createHttpApp } from './create-http-app.js'
import { memoryDeps } from './describe-env.js'
import { PINNED_TIME } from './test-support.js'
import { startHttpServer } from './start-http-server.js'

export const REDIRECT_URI = 'https://rp.example/callback'

/** Test clients: a first-party confidential web app, a third-party partner, a public SPA, a first-party backend. */
export const TEST_CLIENTS = {
  web: { clientId: 'web', secret: 'web-secret' },
  partner: { clientId: 'partner', secret: 'partner-secret' },
  spa: { clientId: 'spa' },
  backend: { clientId: 'backend', secret: 'backend-secret' },
  /** RS256 tokens, registered post-logout redirect, pushed authorization requests required. */
  rsa: { clientId: 'rsa', secret: 'rsa-secret' },
} as const

export function testDeployment(): DeploymentConfig {
  const clients: OAuthClientConfig[] = [
    { clientId: 'web', name: 'Web', redirectUris: [REDIRECT_URI, 'https://rp.example/other'], clientSecretSha256: sha256Hex('web-secret'), firstParty: true },
    { clientId: 'partner', name: 'Partner', redirectUris: [REDIRECT_URI], clientSecretSha256: sha256Hex('partner-secret'), allowedScopes: ['openid', 'profile', 'cairn:record', 'cairn:verify'] },
    { clientId: 'spa', name: 'SPA', redirectUris: ['http://127.0.0.1:5173/callback'], firstParty: true },
    { clientId: 'backend', name: 'Backend', redirectUris: [], clientSecretSha256: sha256Hex('backend-secret'), firstParty: true },
    {
      clientId: 'rsa', name: 'RSA relying party', redirectUris: [REDIRECT_URI], clientSecretSha256: sha256Hex('rsa-secret'), firstParty: true,
      idTokenSigningAlg: 'RS256', accessTokenSigningAlg: 'RS256', postLogoutRedirectUris: ['https://rp.example/signed-out'], requirePushedAuthorizationRequests: true,
    },
  ]
  return { clients, businessAccounts: ['boss'] }
}

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>

export interface SignedIn {
  readonly userId: string
  readonly principal: SessionPrincipal
  /** The cookie value, and the `Cookie` header that carries it. */
  readonly cookie: string
  readonly cookieHeader: string
}

export interface OidcTestWorld {
  readonly deps: CoreDeps
  readonly clock: FixedClock
  readonly authenticator: Authenticator
  /** Create an identity in the Store and a live session for it. */
  signIn(username: string): Promise<SignedIn>
  /** Run an operation in-process through the full pipeline (boundary, decoding, use case). */
  call(operationId: string, input?: CallInput): Promise<Either<DomainError, Reply>>
}

export interface CallInput {
  readonly query?: Readonly<Record<string, string>>
  readonly params?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly credentials?: Credentials
}

export interface OidcWorldOptions {
  /** @default 'https://cairn.test' */
  readonly baseUrl?: string
  /** @default new FixedClock(2026-06-25T00:00:00Z) */
  readonly clock?: FixedClock
  readonly deployment?: DeploymentConfig
  readonly keys?: KeyStore
  /** @default the deterministic built-in generator */
  readonly text?: TextGenerator
}

export const WORLD_TIME = PINNED_TIME

/** The provider and the identity operations it relies on (ID continue signs people in). */
const USE_CASES = { ...oidcUseCases, ...identityUseCases }

/** @example const world = await createOidcTestWorld(); const ada = await world.signIn('ada') */
export async function createOidcTestWorld(options: OidcWorldOptions = {}): Promise<OidcTestWorld> {
  const clock = options.clock ?? new FixedClock(WORLD_TIME)
  const deps: CoreDeps = memoryDeps({
    clock,
    seed: 'oidc-tests',
    baseUrl: options.baseUrl ?? 'https://cairn.test',
    deployment: options.deployment ?? testDeployment(),
    ...(options.keys ? { keys: options.keys } : {}),
    ...(options.text ? { text: options.text } : {}),
  })
  await deps.store.declare([...oidcCollections, ...identityCollections])
  const authenticator = createCairnAuthenticator({ deps, verifyBearer: verifyAccessToken })
  const env: OperationEnvironment = { deps, authenticator, useCases: USE_CASES }
  return {
    deps,
    clock,
    authenticator,
    call(operationId, input = {}) {
      const op = operationsById.get(operationId)
      if (!op) throw new Error(`no operation ${operationId}`)
      return executeOperation(op, { params: input.params ?? {}, query: input.query ?? {}, body: input.body, credentials: input.credentials ?? {} }, env)
    },
    async signIn(username) {
      const userId = `usr_${username}`
      if (!(await deps.store.get(IDENTITIES, userId))) {
        const at = new Date(clock.now()).toISOString()
        const record: IdentityRecord = { userId, username, displayName: `${username[0]!.toUpperCase()}${username.slice(1)} Test`, email: null, localUid: `local-${username}`, keys: [], createdAt: at, updatedAt: at }
        const outcome = await deps.store.commit([{ kind: 'put', collection: IDENTITIES, key: userId, value: identityValue(record), expect: { kind: 'absent' } }])
        if (!outcome.ok) throw new Error(`could not create ${username}`)
      }
      const session = newSession(deps, userId)
      const started = await deps.store.commit([session.write])
      if (!started.ok) throw new Error(`could not start a session for ${username}`)
      const principal: SessionPrincipal = { kind: 'session', userId, sessionId: session.record.sessionId, businessTier: isBusinessTier(deps, username), authTimeMs: clock.now() }
      return { userId, principal, cookie: session.cookieValue, cookieHeader: `${sessionCookieName(deps.config.baseUrl)}=${session.cookieValue}` }
    },
  }
}

export interface OidcTestHost extends OidcTestWorld {
  /** `http://127.0.0.1:<port>`: the base URL and issuer. */
  readonly url: string
  /** Failures the host logged as unexpected (500s); tests expect none. */
  readonly unexpectedErrors: unknown[]
  close(): Promise<void>
}

/**
 * A listening h3 host serving the OIDC use cases. The issuer must equal the listening URL, so
 * the server starts first and the app is made once the port is known. The clock starts at the
 * real time: openid-client checks `iat`/`exp` against its own clock.
 *
 * @example const host = await startOidcTestHost(); await client.discovery(new URL(host.url), 'web', 'web-secret', undefined, { execute: [client.allowInsecureRequests] })
 */
export async function startOidcTestHost(options: Omit<OidcWorldOptions, 'baseUrl'> = {}): Promise<OidcTestHost> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>) | undefined
  const server = await startHttpServer((req, res) => handler!(req, res), { host: '127.0.0.1', port: 0 })
  const world = await createOidcTestWorld({ clock: new FixedClock(Date.now()), ...options, baseUrl: server.url })
  const unexpectedErrors: unknown[] = []
  const env: OperationEnvironment = { deps: world.deps, authenticator: world.authenticator, useCases: USE_CASES }
  handler = toNodeHandler(createHttpApp({ env, logError: (error) => unexpectedErrors.push(error) })) as typeof handler
  return {
    ...world,
    url: server.url,
    unexpectedErrors,
    async close() {
      await server.close()
      await world.deps.store.close()
    },
  }
}

/** Every document of a collection (tests read the Store directly to prove what was written). */
export async function allDocuments(deps: CoreDeps, collection: string, index: string): Promise<unknown[]> {
  const page = await deps.store.query(collection, { index, limit: 1000 })
  return page.items.map((doc) => doc.value)
}

/** A snapshot of everything the provider stored plus the action ledger, to prove a refusal wrote nothing. */
export async function storeSnapshot(deps: CoreDeps): Promise<string> {
  const parts: unknown[] = []
  for (const spec of oidcCollections) {
    const index = spec.indexes?.[0]?.name
    if (index) parts.push(spec.name, (await deps.store.query(spec.name, { index, limit: 1000 })).items)
  }
  parts.push('ledger', (await deps.store.readStream('ledger.actions', { limit: 1000 })).items)
  return JSON.stringify(parts)
}

/** A fixed PKCE pair: RFC 7636 Appendix B's verifier and its S256 challenge. */
export const PKCE = {
  verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
} as const

/** A valid authorization request of the `web` client, with `overrides` (undefined removes a parameter). */
export function authorizeQuery(overrides: Readonly<Record<string, string | undefined>> = {}): Record<string, string> {
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: 'web',
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile cairn:record',
    state: 'state-1',
    nonce: 'nonce-1',
    code_challenge: PKCE.challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined))
}

/** The Location of a redirect reply (throws on anything else). */
export function locationOf(reply: Either<DomainError, Reply>): URL {
  if (reply._tag !== 'Right' || reply.right.kind !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(reply)}`)
  return new URL(reply.right.location)
}

/** The JSON body of a reply (throws on anything else). */
export function bodyOf<T = Record<string, unknown>>(reply: Either<DomainError, Reply>): T {
  if (reply._tag !== 'Right' || reply.right.kind !== 'json') throw new Error(`expected JSON, got ${JSON.stringify(reply)}`)
  return reply.right.body as T
}

/** Client credentials as the host reads them from HTTP Basic. */
export function clientCredentials(clientId: string, clientSecret?: string): Credentials {
  return { client: { clientId, ...(clientSecret === undefined ? {} : { clientSecret }), method: 'basic' } }
}

/**
 * One listening OIDC test host for a whole test file, with `ada` signed in: started before the
 * file's tests, closed after them, and every test checked for unexpected 500s.
 *
 * @example let host: OidcTestHost; let ada: SignedIn; useSharedOidcTestHost((h, a) => { host = h; ada = a })
 */
export function useSharedOidcTestHost(ready: (host: OidcTestHost, ada: SignedIn) => void): void {
  let host: OidcTestHost | undefined
  beforeAll(async () => {
    host = await startOidcTestHost()
    ready(host, await host.signIn('ada'))
  })
  afterAll(async () => host?.close())
  afterEach(() => expect(host?.unexpectedErrors).toEqual([]))
}
