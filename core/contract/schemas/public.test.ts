/**
 * The public components against the spec: names, required lists (spec's `Svc` → `Cairn`), JSON
 * Schema generation, and decoding of the richest shapes.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import { compareReleases } from '../../releases/compare.js'
import { RELEASES } from '../../releases/records.js'
import { toJsonSchema } from '../json-schema.js'
import { commonComponents } from './common.js'
import { publicComponents } from './public.js'

/** The spec's required lists (schemas-required.json), names mapped `Svc` → `Cairn`. */
const SPEC_REQUIRED: Record<string, readonly string[]> = {
  ActionLedgerFeed: ['ok', 'events'],
  CheckoutRequest: ['amountUsd', 'currency'],
  CheckoutSessionResponse: ['ok'],
  CheckoutSessionStatusResponse: ['ok'],
  ConformanceBadgeResponse: ['ok'],
  ConformanceHistoryResponse: ['ok', 'schema', 'generatedAt', 'count', 'snapshots'],
  ConformanceRollupsResponse: ['ok', 'schema', 'generatedAt', 'days', 'count', 'rollups'],
  ConnectTransferRequest: ['recipientUserId', 'unit'],
  ConnectTransferResponse: ['ok'],
  ConnectWalletResponse: ['ok'],
  CreateTwinMarketIntentInput: ['marketId', 'side'],
  CreatorProductionRunRequest: ['requestId', 'quoteExpiresAt', 'prompt'],
  DocumentSealRequest: ['file'],
  DocumentSealResponseMetadata: [],
  DocumentVerifyRequest: ['file'],
  DocumentVerifyResponse: ['ok', 'kind', 'errors', 'warnings'],
  GrantedScopesResponse: ['schema', 'grantedScopes', 'applicationId'],
  NoteClaimResponse: ['ok'],
  OidcAgentTokenRequest: ['clientId'],
  OidcAgentTokenResponse: ['ok'],
  OidcDiscoveryMetadata: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported'],
  OidcIntrospectionResponse: ['active'],
  OidcJwksResponse: ['keys'],
  OidcResponse: [],
  OidcRevocationResponse: [],
  OidcTokenForm: [],
  OidcTokenResponse: ['access_token', 'token_type', 'expires_in'],
  OidcUserinfoResponse: ['sub'],
  PhiValueExecutionOutcome: [],
  PhiValueExecutionRequest: ['intent', 'authorityDigest'],
  ProofAuthorityExchangeRequest: ['artifact', 'challenge', 'applicationId', 'scopes'],
  ProofAuthorityExchangeResponse: ['schema', 'applicationId', 'artifactDigest', 'grantedScopes', 'authorityDigest', 'accessToken', 'expiresIn', 'refreshable', 'authority'],
  PublicProofCollectionResponse: ['ok', 'records'],
  PublicProofLookupResponse: ['ok'],
  PublicProofObserveResponse: ['ok', 'record'],
  PublicProofRecord: [],
  PublicProofRegistryFeed: ['schema', 'records'],
  PublicProofRegistryFeedResponse: ['ok'],
  SaveTwinMarketMandateInput: [],
  SignalCircuitConformanceResponse: ['ok'],
  SignalCircuitResponse: [],
  SignalCircuitSimulationResponse: ['ok'],
  SportsConformanceResponse: ['ok'],
  SportsDeveloperResponse: [],
  SubjectNamespaceResolutionRequest: ['atHead', 'names'],
  SubjectNamespaceResolutionResponse: ['ok', 'subjectId', 'atHead', 'registryDigest', 'reducerDigest', 'namespaces', 'authenticationDigest'],
  CairnAppStateFeed: ['schema', 'records'],
  CairnAppStateRecord: ['id', 'sourceUrl', 'schema', 'data'],
  CairnAssetManifest: ['schema', 'assetId', 'assetType', 'proof', 'links'],
  CairnIdContinueRequest: ['keyId', 'alg', 'publicKeyRawB64u', 'localUid', 'username', 'displayName', 'createdAt', 'challengeB64Url', 'signatureB64Url'],
  CairnIdContinueResponse: ['ok', 'created', 'bound', 'next', 'session'],
  CairnProofBundle: ['kind', 'payloadVersion', 'createdAtMs', 'ts', 'code', 'slug', 'verifyPath', 'verifyUrl', 'kaiPulseEternal'],
  CairnSportsCardManifest: ['schema', 'sport', 'collectibleId', 'claimHash', 'card', 'ownership', 'valueBasis', 'links'],
  CairnWebhookEvent: ['schema', 'id', 'type', 'createdAt', 'data'],
  TwinApprovalResponse: ['ok', 'twinApproval'],
  TwinMarketIntentResponse: ['ok', 'intent'],
  TwinMarketIntentsResponse: ['ok'],
  TwinMarketMandateResponse: ['ok', 'mandate'],
  TwinMindArtifactPng: [],
  TwinMindImportRequest: ['mind'],
  TwinMindImportSummaryResponse: ['ok', 'summary'],
  TwinProductionMessageRequest: ['requestId', 'quoteExpiresAt', 'message'],
  TwinPromotionApprovalInput: ['performance'],
  WalletLedgerEvent: ['id', 'kind', 'createdAt'],
  WalletLedgerFeed: ['ok', 'events', 'rollup'],
  WalletLedgerRollup: [],
  WalletNoteDownloadResponse: ['ok'],
  WalletNoteResponse: ['ok'],
  WorldPublicResponse: [],
}

/** The six schemas the spec implies but does not name (docs/decisions.md). */
const IMPLIED_REQUIRED: Record<string, readonly string[]> = {
  WebhookEndpoint: ['id', 'url', 'eventTypes', 'enabled', 'createdAt', 'updatedAt'],
  WebhookEndpointCreateRequest: ['url'],
  WebhookEndpointUpdateRequest: [],
  WebhookTestEventRequest: ['eventType'],
  ReleaseRecord: ['version', 'title', 'releasedAt', 'summary', 'packages', 'migration', 'evidence'],
  ReleaseComparison: ['from', 'to', 'changes', 'packages', 'evidence', 'migration'],
}

const entries = Object.entries(publicComponents) as [string, t.Any][]
const sorted = (list: readonly string[]) => [...list].sort()
const decodes = (codec: t.Any, value: unknown) => E.isRight(codec.decode(value))

describe('public components', () => {
  it('holds the 69 named public schemas plus the 6 implied ones', () => {
    expect(entries).toHaveLength(75)
    expect(sorted(Object.keys(publicComponents))).toEqual(sorted([...Object.keys(SPEC_REQUIRED), ...Object.keys(IMPLIED_REQUIRED)]))
  })

  it.each(entries)('%s is named after its key', (name, codec) => {
    expect(codec.name).toBe(name)
  })

  it.each(entries)('%s has exactly the required list of the spec', (name, codec) => {
    const schema = toJsonSchema(codec, new Map(), codec)
    const expected = SPEC_REQUIRED[name] ?? IMPLIED_REQUIRED[name]!
    if (expected.length === 0) {
      // "none": an object without required properties, or a non-object alias.
      expect(schema.type === 'object' ? schema.required : undefined).toBeUndefined()
    } else {
      expect(schema.type).toBe('object')
      expect(sorted((schema.required as string[] | undefined) ?? [])).toEqual(sorted(expected))
    }
  })

  it('publishes the Twin mind export as a PNG body', () => {
    const schema = toJsonSchema(publicComponents.TwinMindArtifactPng, new Map(), publicComponents.TwinMindArtifactPng)
    expect(schema).toMatchObject({ type: 'string', format: 'binary', contentMediaType: 'image/png' })
  })

  it('turns nested components into $refs when they are named', () => {
    const names = new Map<t.Any, string>([...entries, ...Object.entries(commonComponents)].map(([name, codec]) => [codec as t.Any, name]))
    for (const [, codec] of entries) expect(() => toJsonSchema(codec, names, codec)).not.toThrow()
    const schema = toJsonSchema(publicComponents.WalletLedgerFeed, names, publicComponents.WalletLedgerFeed)
    const properties = schema.properties as Record<string, Record<string, unknown>>
    expect(properties.events).toEqual({ type: 'array', items: { $ref: '#/components/schemas/WalletLedgerEvent' } })
    expect(properties.rollup).toEqual({ $ref: '#/components/schemas/WalletLedgerRollup' })
  })
})

describe('decoding', () => {
  const { WalletLedgerFeed, CairnIdContinueRequest, OidcDiscoveryMetadata, ReleaseRecord, ReleaseComparison, WebhookEndpoint } = publicComponents

  const event = {
    id: 'evt_1',
    kind: 'transfer',
    createdAt: '2026-06-25T12:00:00.000Z',
    pulse: 12_345_678,
    amountPhiMicro: '1500000',
    amountUsdCents: '250',
    proofBundle: { kind: 'cairn.wallet_ledger_receipt', verifyPath: '/verify/abc' },
  }
  const rollup = {
    totalTransferEvents: '1', totalNoteMintEvents: '0', totalNoteClaimEvents: '0', totalPhiCreditMicro: '1500000',
    totalPhiDebitMicro: '1500000', totalUsdCreditCents: '250', totalUsdDebitCents: '250', updatedAt: '2026-06-25T12:00:00.000Z',
  }

  it('WalletLedgerFeed accepts a page with nullable cursors and exact decimal strings', () => {
    expect(decodes(WalletLedgerFeed, { ok: true, cursor: null, since: null, nextCursor: 'c2', events: [event], rollup })).toBe(true)
    expect(decodes(WalletLedgerFeed, { ok: true, events: [], rollup: {} })).toBe(true)
  })

  it('WalletLedgerFeed rejects float amounts, unknown kinds and a missing rollup', () => {
    expect(decodes(WalletLedgerFeed, { ok: true, events: [{ ...event, amountPhiMicro: 1.5 }], rollup })).toBe(false)
    expect(decodes(WalletLedgerFeed, { ok: true, events: [{ ...event, kind: 'refund' }], rollup })).toBe(false)
    expect(decodes(WalletLedgerFeed, { ok: true, events: [event] })).toBe(false)
  })

  const continueRequest = {
    keyId: 'key-1',
    alg: 'ES256',
    publicKeyRawB64u: 'BHx0aGlzLWlzLWEta2V5',
    localUid: 'local-1',
    username: 'ada',
    displayName: 'Ada',
    createdAt: '2026-06-25T12:00:00Z',
    challengeB64Url: 'Y2hhbGxlbmdl',
    signatureB64Url: 'c2lnbmF0dXJl',
  }

  it('CairnIdContinueRequest accepts a signed key proof', () => {
    expect(decodes(CairnIdContinueRequest, continueRequest)).toBe(true)
  })

  it('CairnIdContinueRequest rejects padded base64, an unknown algorithm and a missing signature', () => {
    expect(decodes(CairnIdContinueRequest, { ...continueRequest, signatureB64Url: 'c2lnbmF0dXJl==' })).toBe(false)
    expect(decodes(CairnIdContinueRequest, { ...continueRequest, alg: 'none' })).toBe(false)
    const { signatureB64Url: _, ...unsigned } = continueRequest
    expect(decodes(CairnIdContinueRequest, unsigned)).toBe(false)
  })

  const discovery = {
    issuer: 'https://cairn.example',
    authorization_endpoint: 'https://cairn.example/api/oidc/authorize',
    token_endpoint: 'https://cairn.example/api/oidc/token',
    jwks_uri: 'https://cairn.example/api/oidc/jwks',
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['openid', 'profile', 'cairn:record'],
  }

  it('OidcDiscoveryMetadata accepts RFC 8414 / OpenID Discovery metadata', () => {
    expect(decodes(OidcDiscoveryMetadata, discovery)).toBe(true)
  })

  it('OidcDiscoveryMetadata rejects a missing jwks_uri and an unknown subject type', () => {
    const { jwks_uri: _, ...withoutJwks } = discovery
    expect(decodes(OidcDiscoveryMetadata, withoutJwks)).toBe(false)
    expect(decodes(OidcDiscoveryMetadata, { ...discovery, subject_types_supported: ['secret'] })).toBe(false)
  })

  it('ReleaseRecord and ReleaseComparison accept the release archive as served', () => {
    for (const release of RELEASES) expect(decodes(ReleaseRecord, release)).toBe(true)
    expect(decodes(ReleaseComparison, compareReleases(RELEASES[2]!, RELEASES[0]!))).toBe(true)
  })

  it('ReleaseRecord rejects a merged or missing evidence dimension and an unknown status', () => {
    const release = RELEASES[0]!
    const { visualEvidence: _, ...sixDimensions } = release.evidence
    expect(decodes(ReleaseRecord, { ...release, evidence: sixDimensions })).toBe(false)
    expect(decodes(ReleaseRecord, { ...release, evidence: { status: 'verified' } })).toBe(false)
    expect(decodes(ReleaseRecord, { ...release, evidence: { ...release.evidence, gitTag: { status: 'probably' } } })).toBe(false)
  })

  it('WebhookEndpoint accepts dotted event types only', () => {
    const endpoint = {
      id: 'we_1', url: 'https://hooks.example/cairn', eventTypes: ['creator.run.completed'], enabled: true,
      createdAt: '2026-06-25T12:00:00.000Z', updatedAt: '2026-06-25T12:00:00.000Z', secretPreview: '…a1b2',
    }
    expect(decodes(WebhookEndpoint, endpoint)).toBe(true)
    expect(decodes(WebhookEndpoint, { ...endpoint, eventTypes: ['Creator Run'] })).toBe(false)
  })
})
