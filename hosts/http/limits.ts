/** Request size limits (docs/decisions.md: upload size limits, bytes in flight). */
export interface BodyLimits {
  /** JSON and form bodies. @default 1 MiB */
  readonly jsonBytes: number
  /** Multipart uploads (sealed files, Twin minds). @default 25 MiB */
  readonly multipartBytes: number
  /**
   * Body bytes held across all requests at once; past it a request is answered 503 with
   * Retry-After instead of being read. @default 64 MiB
   */
  readonly inFlightBytes?: number
}

export const DEFAULT_IN_FLIGHT_BYTES = 64 * 1024 * 1024

export const DEFAULT_BODY_LIMITS: BodyLimits = { jsonBytes: 1024 * 1024, multipartBytes: 25 * 1024 * 1024, inFlightBytes: DEFAULT_IN_FLIGHT_BYTES }
