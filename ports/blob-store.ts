/** Content-addressed bytes: the address of a blob is the lowercase hex SHA-256 of its bytes. */
export interface BlobRef {
  readonly sha256: string
  readonly size: number
}

export interface BlobStore {
  /** Store `bytes`; idempotent (same bytes, same address). */
  put(bytes: Uint8Array): Promise<BlobRef>
  /** Store a stream of bytes without holding it all in memory. */
  putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobRef>
  /** The bytes at `sha256`, verified against the address; throws BlobIntegrityError when they do not match. */
  get(sha256: string): Promise<Uint8Array | undefined>
  /** The bytes as a stream; the stream errors with BlobIntegrityError at its end if they do not match. */
  getStream(sha256: string): Promise<AsyncIterable<Uint8Array> | undefined>
  has(sha256: string): Promise<boolean>
  close(): Promise<void>
}
