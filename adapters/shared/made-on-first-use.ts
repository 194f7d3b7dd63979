/**
 * A resource several adapters share (a database client, a connection pool), made when the first of
 * them needs it and released once by its owner. A failed making is forgotten, so the next call tries
 * again; after release every call is refused.
 *
 * @example const pool = new MadeOnFirstUse(() => createPool(), (made) => made.end()); await pool.get(() => new Error('closed'))
 */
export class MadeOnFirstUse<T> {
  private made: Promise<T> | undefined
  private released = false

  constructor(
    private readonly make: () => Promise<T>,
    private readonly release: (made: T) => Promise<void>,
  ) {}

  /** The resource, made on the first call; `afterRelease()` is the refusal once it was released. */
  get(afterRelease: () => Error): Promise<T> {
    if (this.released) return Promise.reject(afterRelease())
    this.made ??= this.make()
    return this.made.catch((error: unknown) => {
      this.made = undefined
      throw error
    })
  }

  /** Release what was made, if anything was; later calls are refused. */
  async dispose(): Promise<void> {
    this.released = true
    const made = this.made
    this.made = undefined
    const resource = await made?.catch(() => undefined)
    if (resource !== undefined) await this.release(resource)
  }
}
