/**
 * S3BlobStore options from one URL, for the CLI and configuration files:
 * `s3://<bucket>/<prefix>?endpoint=<url>&region=<region>&forcePathStyle=true`.
 * Credentials never ride in the URL (it ends up in logs and process lists): the SDK reads them from
 * the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, …).
 */
import type { S3BlobStoreOptions } from './s3-blob-store.js'

const KNOWN_PARAMETERS = new Set(['endpoint', 'region', 'forcePathStyle'])

/**
 * @example
 * parseS3Url('s3://cairn/blobs?endpoint=http://127.0.0.1:4569&region=us-east-1&forcePathStyle=true')
 * // { bucket: 'cairn', prefix: 'blobs/', endpoint: 'http://127.0.0.1:4569', region: 'us-east-1', forcePathStyle: true }
 */
export function parseS3Url(url: string): S3BlobStoreOptions {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new TypeError(`Not an S3 URL: ${url} (expected s3://bucket/prefix?endpoint=…)`)
  }
  if (parsed.protocol !== 's3:') throw new TypeError(`Not an S3 URL: ${url} (expected s3://bucket/prefix)`)
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError('An S3 URL carries no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead')
  }
  const bucket = decodeURIComponent(parsed.hostname)
  if (bucket === '') throw new TypeError(`The S3 URL ${url} names no bucket`)
  for (const name of parsed.searchParams.keys()) {
    if (!KNOWN_PARAMETERS.has(name)) throw new TypeError(`Unknown S3 URL parameter ${name} (known: ${[...KNOWN_PARAMETERS].join(', ')})`)
  }
  const path = decodeURIComponent(parsed.pathname.replace(/^\//, ''))
  // The path is a folder: `s3://bucket/blobs` keeps objects under `blobs/`.
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) throw new TypeError(`The S3 endpoint must be an http(s) URL, not ${endpoint}`)
  const region = parsed.searchParams.get('region') ?? undefined
  const forcePathStyle = parseBoolean(parsed.searchParams.get('forcePathStyle'))
  return {
    bucket,
    prefix,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined ? {} : { region }),
    ...(forcePathStyle === undefined ? {} : { forcePathStyle }),
  }
}

function parseBoolean(text: string | null): boolean | undefined {
  if (text === null) return undefined
  if (text === 'true' || text === '1' || text === '') return true
  if (text === 'false' || text === '0') return false
  throw new TypeError(`forcePathStyle is true or false, not ${text}`)
}
