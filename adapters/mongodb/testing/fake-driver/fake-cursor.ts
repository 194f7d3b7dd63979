// The find cursor (FakeCursor) and its paging and sorting of results.
import type { Doc } from './documents.js'
import { compareValues, sortValue } from './query.js'

/** Settings a cursor gathers before it runs. */
export interface CursorSettings {
  sort?: Doc
  limit?: number
  skip?: number
}

/** A find cursor: sort/limit/skip chain, then next/toArray/iteration. */
export class FakeCursor {
  private settings: CursorSettings
  private results: Doc[] | undefined
  private closed = false

  constructor(
    options: Doc,
    private readonly execute: (settings: CursorSettings) => Promise<Doc[]>,
  ) {
    const { session: _session, ...rest } = options
    this.settings = { ...(rest as CursorSettings) }
  }

  sort(sort: Doc): this {
    this.settings = { ...this.settings, sort }
    return this
  }

  limit(limit: number): this {
    this.settings = { ...this.settings, limit }
    return this
  }

  skip(skip: number): this {
    this.settings = { ...this.settings, skip }
    return this
  }

  project(): this {
    return this
  }

  withReadPreference(): this {
    return this
  }

  async toArray(): Promise<Doc[]> {
    const results = await this.load()
    const rest = [...results]
    results.length = 0
    return rest
  }

  async next(): Promise<Doc | null> {
    if (this.closed) return null
    return (await this.load()).shift() ?? null
  }

  async hasNext(): Promise<boolean> {
    return (await this.load()).length > 0
  }

  async close(): Promise<void> {
    this.closed = true
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Doc> {
    for (let doc = await this.next(); doc !== null; doc = await this.next()) yield doc
  }

  private async load(): Promise<Doc[]> {
    this.results ??= await this.execute(this.settings)
    return this.results
  }
}

export function page(docs: Doc[], settings: CursorSettings): Doc[] {
  const sorted = settings.sort === undefined ? docs : [...docs].sort((a, b) => compareBySort(a, b, settings.sort!))
  const start = settings.skip ?? 0
  return sorted.slice(start, settings.limit === undefined || settings.limit === 0 ? undefined : start + settings.limit)
}

function compareBySort(a: Doc, b: Doc, sort: Doc): number {
  for (const [path, direction] of Object.entries(sort)) {
    const way = direction === -1 ? -1 : 1
    const order = compareValues(sortValue(a, path, way), sortValue(b, path, way))
    if (order !== 0) return way * order
  }
  return 0
}
