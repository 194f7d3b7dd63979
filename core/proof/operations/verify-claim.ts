/**
 * POST /api/verify: what the registry holds for claim coordinates (`code`, `slug`, `verifyUrl` or
 * `sha256`), answered as verdict envelopes signed by the current proof key over their RFC 8785
 * canonical JSON. An envelope reports the registry; the sealed bytes remain the authority.
 */
import * as E from 'fp-ts/lib/Either.js'
import { canonicalJsonBytes } from '../../digest/canonical-json.js'
import { toBase64Url } from '../../encoding/base64url.js'
import { invalidInput } from '../../errors/domain-error.js'
import { actorPseudonym, pseudonymSecret } from '../../ledger/action-ledger.js'
import type { CoreDeps, UseCaseFor } from '../../usecases/use-case.js'
import { PROOF_SIGNING_ALG } from '../seal-artifact.js'
import { sealByCode, sealBySlug, sealsBySha256, type SealRecord } from '../seal-records.js'
import { recordByCode, recordsBySha256, type DigestRecord } from '../digest-records.js'

export const VERDICT_ENVELOPE_SCHEMA = 'cairn.verdict_envelope.v1'

type Coordinates = { readonly code?: string; readonly slug?: string; readonly verifyUrl?: string; readonly sha256?: string }

function coordinatesOf(body: Readonly<Record<string, unknown>> | undefined): E.Either<string, Coordinates> {
  const coordinates: Record<string, string> = {}
  for (const name of ['code', 'slug', 'verifyUrl', 'sha256'] as const) {
    const value = body?.[name]
    if (value === undefined) continue
    if (typeof value !== 'string' || value === '') return E.left(`body.${name} must be a non-empty string`)
    coordinates[name] = value
  }
  if (Object.keys(coordinates).length === 0) return E.left('Name the claim: body.code, body.slug, body.verifyUrl or body.sha256')
  if (coordinates.sha256 !== undefined && !/^[0-9a-f]{64}$/u.test(coordinates.sha256)) return E.left('body.sha256 must be 64 lowercase hex digits')
  return E.right(coordinates)
}

/** The code a verify URL or path points at (`…/verify/<code>`). */
function codeOfVerifyUrl(verifyUrl: string): string | undefined {
  return /\/verify\/([0-9a-f]{20})\/?(?:[?#].*)?$/u.exec(verifyUrl)?.[1]
}

function sealEntry(record: SealRecord, secret: Uint8Array) {
  const { bundle, payload } = record.statement
  return {
    type: 'seal',
    code: record.code,
    slug: record.slug,
    sealKind: record.sealKind,
    sha256: record.sha256,
    byteLength: payload.length,
    mediaType: payload.mediaType,
    statementSha256: record.statementSha256,
    createdAt: bundle.ts,
    kaiPulseEternal: bundle.kaiPulseEternal,
    verifyUrl: bundle.verifyUrl,
    owner: record.ownerUserId === null ? null : actorPseudonym(secret, record.ownerUserId),
  }
}

function digestEntry(record: DigestRecord, secret: Uint8Array) {
  return { type: 'record', code: record.code, sha256: record.sha256, createdAt: new Date(record.createdAtMs).toISOString(), verifyUrl: record.verifyUrl, owner: actorPseudonym(secret, record.ownerUserId) }
}

async function lookup(deps: CoreDeps, coordinates: Coordinates) {
  const code = coordinates.code ?? (coordinates.verifyUrl ? codeOfVerifyUrl(coordinates.verifyUrl) : undefined)
  const secret = await pseudonymSecret(deps.keys)
  const found: ReturnType<typeof sealEntry | typeof digestEntry>[] = []
  if (code) {
    const seal = await sealByCode(deps, code)
    if (seal) found.push(sealEntry(seal, secret))
    const record = await recordByCode(deps, code)
    if (record) found.push(digestEntry(record, secret))
  }
  if (coordinates.slug) {
    const seal = await sealBySlug(deps, coordinates.slug)
    if (seal && !found.some((entry) => entry.code === seal.code)) found.push(sealEntry(seal, secret))
  }
  if (coordinates.sha256) {
    for (const seal of await sealsBySha256(deps, coordinates.sha256)) if (!found.some((entry) => entry.code === seal.code)) found.push(sealEntry(seal, secret))
    for (const record of await recordsBySha256(deps, coordinates.sha256)) if (!found.some((entry) => entry.code === record.code)) found.push(digestEntry(record, secret))
  }
  return found
}

export const verifyClaim: UseCaseFor<'verifyClaim'> = async (request, deps) => {
  const coordinates = coordinatesOf(request.body)
  if (E.isLeft(coordinates)) return E.left(invalidInput(coordinates.left))
  const found = await lookup(deps, coordinates.right)
  const key = await deps.keys.current(PROOF_SIGNING_ALG, 'proof')
  const envelopes = []
  for (const entry of found.length > 0 ? found : [null]) {
    const envelope = {
      schema: VERDICT_ENVELOPE_SCHEMA,
      issuer: deps.config.baseUrl,
      issuedAt: new Date(deps.clock.now()).toISOString(),
      coordinates: coordinates.right,
      found: entry !== null,
      ...(entry ? { entry } : {}),
    }
    envelopes.push({ envelope, signature: { kid: key.kid, alg: key.alg, sig: toBase64Url(await key.sign(canonicalJsonBytes(envelope))) } })
  }
  return E.right({
    kind: 'json',
    body: {
      ok: true,
      found: found.length > 0,
      envelopes,
      note: 'Envelopes report what this registry holds; the sealed bytes you hold are the authority (verify them with POST /api/document-verify or offline).',
    },
  })
}
