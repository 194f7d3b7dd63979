/**
 * The AWS SDK is an optional dependency: importing the S3 adapter (as every host does through
 * select-adapters) and configuring it must not load the SDK; the first request does.
 * (The sentence naming the package when it is absent: adapters/shared/optional-package.test.ts.)
 */
import { describe, expect, it, vi } from 'vitest'

const sdk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('@aws-sdk/client-s3', () => {
  sdk.loads++
  throw new Error('the SDK was loaded')
})

describe('S3BlobStore and the AWS SDK', () => {
  it('loads the SDK on the first request, not on import or configuration', async () => {
    const { S3BlobStore } = await import('./s3-blob-store.js')
    const { selectAdapters } = await import('../../hosts/library/select-adapters.js')
    const selected = selectAdapters({ blobs: 's3://bucket/prefix?endpoint=http://127.0.0.1:1' })
    const direct = new S3BlobStore({ bucket: 'b' })
    expect(sdk.loads).toBe(0)
    await expect(selected.blobs.get('0'.repeat(64))).rejects.toThrow(/S3 is unavailable/)
    expect(sdk.loads).toBe(1)
    await selected.close()
    await direct.close()
  })
})
