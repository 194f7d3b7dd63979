/**
 * `GET /releases`, `GET /releases/{version}` and `GET /releases/compare?from=…&to=…`
 * (docs/decisions.md: release payloads and the compare query).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, notFound, type DomainError } from '../errors/domain-error.js'
import { quoteInput } from '../errors/quote-input.js'
import { json, type Reply } from '../usecases/use-case.js'
import { compareReleases, findRelease } from './compare.js'
import { RELEASES } from './records.js'
import { deepFreeze } from '../encoding/deep-freeze.js'

type Query = Readonly<Record<string, string | readonly string[]>>

/** A read-only route outside the contract table; hosts serve it beside the operations. */
export interface PublicRoute {
  readonly method: 'GET'
  readonly path: string
  /** May answer synchronously: hosts then answer in the same tick (the cheapest reads stay cheap). */
  readonly handle: (input: { readonly params: Readonly<Record<string, string>>; readonly query: Query }) => Either<DomainError, Reply> | Promise<Either<DomainError, Reply>>
}

function single(query: Query, name: string): string | undefined {
  const value = query[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Answers that never change, built once and frozen (hosts may cache their serialised form). */
const listReply = json(deepFreeze({ ok: true, latest: RELEASES[0]!.version, releases: RELEASES }))
const releaseReplies = new Map(RELEASES.map((release) => [release.version, json(deepFreeze({ ok: true, release }))]))

export const releaseRoutes: readonly PublicRoute[] = [
  {
    method: 'GET',
    path: '/releases',
    handle: () => E.right(listReply),
  },
  {
    method: 'GET',
    path: '/releases/compare',
    handle: ({ query }) => {
      const fromVersion = single(query, 'from')
      const toVersion = single(query, 'to') ?? RELEASES[0]!.version
      if (!fromVersion) return E.left(invalidInput('Query parameter from is required (e.g. ?from=v108.0.0&to=v129.0.0)'))
      const from = findRelease(fromVersion)
      const to = findRelease(toVersion)
      if (!from) return E.left(notFound(`No release ${quoteInput(fromVersion)}`))
      if (!to) return E.left(notFound(`No release ${quoteInput(toVersion)}`))
      return E.right(json({ ok: true, comparison: compareReleases(from, to) }))
    },
  },
  {
    method: 'GET',
    path: '/releases/{version}',
    handle: ({ params }) => {
      const release = findRelease(params.version ?? '')
      return release ? E.right(releaseReplies.get(release.version)!) : E.left(notFound(`No release ${quoteInput(params.version ?? '')}`))
    },
  },
]
