/**
 * `npm run bench:identity`: the OpenID provider's hot paths, each next to raw jose doing the same
 * cryptography with the same algorithm (ES256):
 *
 * - access token issuance (`issueAccessToken`, signed inside the KeyStore) vs jose `SignJWT`;
 * - the bearer check (`verifyAccessToken`: header, cached key, jose `jwtVerify`, claims, client,
 *   grant revocation read) vs a bare jose `jwtVerify` with an imported key, on the first use of
 *   each token (round robin over more tokens than the process remembers), and on a token used
 *   again (remembered: no signature check, core/oidc/verified-tokens.ts);
 * - a full refresh-token grant at the token endpoint (rotation, ID token, atomic commit with the
 *   ledger event) and introspection (RFC 7662), per second.
 *
 * Sequential awaits on one core, memory adapters. Target: bearer / jose ≤ 1.5× (time per call).
 * Figures: bench/README.md, "Identity".
 */
import { generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose'
import { MemoryBlobStore, MemoryEventBus, MemoryKeyStore, MemoryStore } from '../adapters/memory/index.js'
import { CryptoEntropy, SystemClock } from '../adapters/system/index.js'
import { identityCollections } from '../core/identity/index.js'
import { issueAccessToken } from '../core/oidc/access-token.js'
import { grants } from '../core/oidc/collections.js'
import { oidcCollections, oidcUseCases, verifyAccessToken } from '../core/oidc/index.js'
import { MAX_REMEMBERED_TOKENS } from '../core/oidc/verified-tokens.js'
import type { GrantRecord } from '../core/oidc/records.js'
import { issueTokenSet } from '../core/oidc/token-set.js'
import type { CoreDeps } from '../core/usecases/use-case.js'
import { sha256Hex } from '../core/digest/sha256.js'
import { perSecond as perSecondFor, printRates } from './per-second.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)

const deps: CoreDeps = {
  clock: new SystemClock(),
  entropy: new CryptoEntropy(),
  store: new MemoryStore(),
  blobs: new MemoryBlobStore(),
  events: new MemoryEventBus(),
  keys: new MemoryKeyStore(),
  config: {
    baseUrl: 'https://cairn.bench',
    deployment: { clients: [{ clientId: 'web', redirectUris: ['https://rp.example/callback'], clientSecretSha256: sha256Hex('secret'), firstParty: true }] },
  },
}
await deps.store.declare([...oidcCollections, ...identityCollections])

const grant: GrantRecord = {
  grantId: 'grt_bench', userId: 'usr_bench', clientId: 'web', scopes: ['openid', 'profile', 'cairn:record'],
  createdAtMs: Date.now(), revokedAtMs: null, revokedReason: null, revokedAccessTokens: {},
}
await deps.store.commit([grants.put(grant.grantId, grant, { kind: 'absent' })])

const perSecond = (run: () => Promise<unknown>) => perSecondFor(run, SECONDS)

// The same key material for both sides: the KeyStore's current ES256 key.
const signingKey = await deps.keys.current('ES256')
const publicKey = (await importJWK({ ...signingKey.publicJwk }, 'ES256')) as CryptoKey
const { token } = await issueAccessToken(deps, grant)
const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>
// jose cannot sign with a KeyStore key (its private half never leaves), so raw signing uses a
// freshly generated ES256 key of the same curve.
const rawPair = await generateKeyPair('ES256')

const client = { kind: 'client', clientId: 'web' } as const
const request = (body: Record<string, string>) => ({ params: {}, query: {}, body, principal: client })
// A stored refresh token starts the rotation chain the refresh row follows.
const firstSet = await issueTokenSet(deps, { grant, accessScopes: grant.scopes, nonce: null })
await deps.store.commit([firstSet.refreshWrite])
let refreshToken = firstSet.response.refresh_token!

// Twice as many tokens as a process remembers, used in turn: each use is a first use.
const freshTokens = await Promise.all(Array.from({ length: 2 * MAX_REMEMBERED_TOKENS }, async () => (await issueAccessToken(deps, grant)).token))
let fresh = 0

const figures = {
  joseSign: await perSecond(() => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k' }).sign(rawPair.privateKey)),
  issue: await perSecond(() => issueAccessToken(deps, grant)),
  joseVerify: await perSecond(() => jwtVerify(token, publicKey, { algorithms: ['ES256'] })),
  bearer: await perSecond(async () => {
    const result = await verifyAccessToken(freshTokens[fresh++ % freshTokens.length]!, deps)
    if (result._tag === 'Left') throw new Error(result.left.message)
  }),
  bearerAgain: await perSecond(async () => {
    const result = await verifyAccessToken(token, deps)
    if (result._tag === 'Left') throw new Error(result.left.message)
  }),
  refresh: await perSecond(async () => {
    const reply = await oidcUseCases.exchangeToken(request({ grant_type: 'refresh_token', refresh_token: refreshToken }), deps)
    if (reply._tag === 'Left' || reply.right.kind !== 'json') throw new Error('refresh failed')
    refreshToken = (reply.right.body as { refresh_token: string }).refresh_token
  }),
  introspect: await perSecond(() => oidcUseCases.introspectToken(request({ token }), deps)),
}

printRates([
  ['jose SignJWT (ES256)', figures.joseSign],
  ['issueAccessToken (KeyStore)', figures.issue],
  ['jose jwtVerify (ES256)', figures.joseVerify],
  ['verifyAccessToken, first use', figures.bearer],
  ['verifyAccessToken, used again', figures.bearerAgain],
  ['token endpoint: refresh grant', figures.refresh],
  ['introspection (RFC 7662)', figures.introspect],
], SECONDS)
const ratio = figures.joseVerify / figures.bearer
console.log(`bearer, first use / jose verify (time per call): ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? 'MET' : 'NOT MET'}`)
console.log(`bearer, a token used again / jose verify (time per call): ${(figures.joseVerify / figures.bearerAgain).toFixed(2)}×`)
console.log(`issuance / jose sign (time per call): ${(figures.joseSign / figures.issue).toFixed(2)}×`)
await deps.store.close()
