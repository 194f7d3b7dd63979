/**
 * Failures of the world behind a port (a database down, a disk full, bytes corrupted at rest).
 * Expected outcomes (a lost race, a missing document) are values, never these. Hosts answer 503.
 */
export class PortUnavailableError extends Error {
  readonly _tag = 'PortUnavailable' as const
  constructor(readonly port: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PortUnavailableError'
  }
}

/** Stored bytes no longer match their content address. */
export class BlobIntegrityError extends Error {
  readonly _tag = 'BlobIntegrity' as const
  constructor(readonly sha256: string, readonly actualSha256: string) {
    super(`Blob ${sha256} is corrupted (bytes hash to ${actualSha256})`)
    this.name = 'BlobIntegrityError'
  }
}
