/** Request size limits (docs/decisions.md: upload size limits). */
export interface BodyLimits {
  /** JSON and form bodies. @default 1 MiB */
  readonly jsonBytes: number
  /** Multipart uploads (sealed files, Twin minds). @default 25 MiB */
  readonly multipartBytes: number
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { jsonBytes: 1024 * 1024, multipartBytes: 25 * 1024 * 1024 }
