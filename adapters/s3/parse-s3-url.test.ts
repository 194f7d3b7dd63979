import { describe, expect, it } from 'vitest'
import { parseS3Url } from './parse-s3-url.js'

describe('parseS3Url', () => {
  it('reads bucket, prefix folder, endpoint, region and path style', () => {
    expect(parseS3Url('s3://cairn/blobs?endpoint=http://127.0.0.1:4569&region=us-east-1&forcePathStyle=true')).toEqual({
      bucket: 'cairn',
      prefix: 'blobs/',
      endpoint: 'http://127.0.0.1:4569',
      region: 'us-east-1',
      forcePathStyle: true,
    })
  })

  it('keeps the defaults to the store when the URL says nothing', () => {
    expect(parseS3Url('s3://cairn')).toEqual({ bucket: 'cairn', prefix: '' })
    expect(parseS3Url('s3://cairn/')).toEqual({ bucket: 'cairn', prefix: '' })
    expect(parseS3Url('s3://cairn/a/b/')).toEqual({ bucket: 'cairn', prefix: 'a/b/' })
    expect(parseS3Url('s3://cairn/a%20b?forcePathStyle=false')).toEqual({ bucket: 'cairn', prefix: 'a b/', forcePathStyle: false })
  })

  it('refuses what it cannot mean', () => {
    expect(() => parseS3Url('http://cairn/blobs')).toThrow(TypeError)
    expect(() => parseS3Url('s3:///blobs')).toThrow(TypeError)
    expect(() => parseS3Url('s3://key:secret@cairn/blobs')).toThrow(/credentials/)
    expect(() => parseS3Url('s3://cairn?endpont=http://127.0.0.1:1')).toThrow(/endpont/)
    expect(() => parseS3Url('s3://cairn?endpoint=127.0.0.1:9000')).toThrow(/http/)
    expect(() => parseS3Url('s3://cairn?forcePathStyle=yes')).toThrow(/forcePathStyle/)
    expect(() => parseS3Url('not a url')).toThrow(TypeError)
  })
})
