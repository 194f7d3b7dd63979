/**
 * The log served outside the 108 operations, like /releases (docs/transparency-log.md):
 * `GET /log/checkpoint` and `GET /log/tile/…` are C2SP tlog-tiles resources, so any tiles client
 * can audit the log; `/log/key`, `/log/proof/inclusion` and `/log/proof/consistency` spare a
 * simple client the tile arithmetic.
 */
import * as E from 'fp-ts/lib/Either.js'
import { invalidInput, notFound } from '../errors/domain-error.js'
import type { PublicRoute } from '../releases/routes.js'
import type { CoreDeps, Reply } from '../usecases/use-case.js'
import { json } from '../usecases/use-case.js'
import { fromBase64, toBase64 } from './base64.js'
import { readConsistencyProof, readInclusionReceipt, readInclusionReceiptForLeafHash } from './inclusion.js'
import { integrateStep } from './integrate.js'
import { logSigner, logVerifierKeys } from './log-identity.js'
import { bundleKey, decodeStoredTile, logBundles, logTiles, readLogState, tileKey, type LogState } from './log-store.js'
import { decodeEntryBundle, encodeEntryBundle, parseTilePath, TILE_WIDTH } from './tile-paths.js'

const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable', 'access-control-allow-origin': '*' }
const MUTABLE = { 'cache-control': 'public, max-age=1, must-revalidate', 'access-control-allow-origin': '*' }

type Query = Readonly<Record<string, string | readonly string[]>>

function sizeParameter(query: Query, name: string): number | undefined {
  const value = query[name]
  return typeof value === 'string' && /^(0|[1-9]\d{0,15})$/.test(value) ? Number(value) : undefined
}

/** The current state; the first read of an empty log signs the empty tree's checkpoint. */
async function currentState(deps: CoreDeps): Promise<LogState> {
  return (await readLogState(deps.store))?.value ?? (await integrateStep(deps)).state
}

const bytesReply = (bytes: Uint8Array, contentType: string, headers: Record<string, string>): Reply => ({ kind: 'bytes', contentType, bytes, headers })

async function tileReply(deps: CoreDeps, path: string) {
  const tile = parseTilePath(path)
  if (!tile) return E.left(notFound(`No log tile ${path}`))
  if (tile.kind === 'hashes') {
    const stored = await logTiles.get(deps.store, tileKey(tile.level, tile.index))
    if (!stored || stored.value.width < tile.width) return E.left(notFound(`No log tile ${path}`))
    return E.right(bytesReply(decodeStoredTile(stored.value).slice(0, tile.width * 32), 'application/octet-stream', IMMUTABLE))
  }
  const stored = await logBundles.get(deps.store, bundleKey(tile.index))
  if (!stored || stored.value.width < tile.width) return E.left(notFound(`No log entry bundle ${path}`))
  const bytes = fromBase64(stored.value.entries)!
  const served = stored.value.width === tile.width ? bytes : encodeEntryBundle(decodeEntryBundle(bytes)!.slice(0, tile.width))
  return E.right(bytesReply(served, 'application/octet-stream', IMMUTABLE))
}

export function logRoutes(deps: CoreDeps, ready: Promise<void> = Promise.resolve()): PublicRoute[] {
  const afterReady = (route: PublicRoute): PublicRoute => ({ ...route, handle: async (input) => (await ready, route.handle(input)) })
  const routes: PublicRoute[] = [
    {
      method: 'GET',
      path: '/log/checkpoint',
      handle: async () => E.right(bytesReply(new TextEncoder().encode((await currentState(deps)).checkpoint), 'text/plain; charset=utf-8', MUTABLE)),
    },
    {
      method: 'GET',
      path: '/log/key',
      handle: async () => {
        const signer = await logSigner(deps.keys, deps.config.baseUrl)
        const verifierKeys = await logVerifierKeys(deps.keys, deps.config.baseUrl)
        return E.right(json({ ok: true, origin: signer.name, verifierKey: signer.verifierKey, verifierKeys, kid: signer.kid, tileWidth: TILE_WIDTH, hash: 'SHA-256' }, MUTABLE))
      },
    },
    {
      method: 'GET',
      path: '/log/tile/**:path',
      handle: ({ params }) => tileReply(deps, params.path ?? ''),
    },
    {
      method: 'GET',
      path: '/log/proof/inclusion',
      handle: async ({ query }) => {
        const index = sizeParameter(query, 'index')
        if (index === undefined) return E.left(invalidInput('Query parameter index must be a leaf index (a non-negative integer)'))
        const receipt = await readInclusionReceipt(deps, index)
        return receipt ? E.right(json({ ok: true, ...receipt })) : E.left(notFound(`Log leaf ${index} is not in the current checkpoint yet`))
      },
    },
    {
      method: 'GET',
      path: '/log/proof/leaf/{leafHash}',
      handle: async ({ params }) => {
        const hash = params.leafHash ?? ''
        if (!/^[0-9a-f]{64}$/.test(hash)) return E.left(invalidInput('The leaf hash must be 64 lowercase hex digits (SHA-256 of 0x00 and the entry bytes)'))
        const receipt = await readInclusionReceiptForLeafHash(deps, hash)
        return receipt ? E.right(json({ ok: true, ...receipt })) : E.left(notFound('No integrated log leaf has that hash (yet)'))
      },
    },
    {
      method: 'GET',
      path: '/log/proof/consistency',
      handle: async ({ query }) => {
        const from = sizeParameter(query, 'from')
        if (from === undefined) return E.left(invalidInput('Query parameter from must be a tree size (a non-negative integer)'))
        const state = await currentState(deps)
        const to = query.to === undefined ? state.size : sizeParameter(query, 'to')
        if (to === undefined) return E.left(invalidInput('Query parameter to must be a tree size (a non-negative integer)'))
        if (from > to) return E.left(invalidInput('Query parameter from must not exceed to'))
        const proof = await readConsistencyProof(deps, from, to)
        if (!proof) return E.left(notFound(`The current checkpoint covers ${state.size} leaves, not ${to}`))
        // The checkpoint is included when `to` is the current size; for an older size the client holds its own.
        return E.right(json({ ok: true, from, to, ...(to === state.size ? { checkpoint: state.checkpoint } : {}), consistencyProof: proof.map(toBase64) }))
      },
    },
  ]
  return routes.map(afterReady)
}
