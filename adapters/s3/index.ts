export { S3BlobStore, S3_BLOB_STORE_NAME, type S3BlobStoreOptions } from './s3-blob-store.js'
export { parseS3Url } from './parse-s3-url.js'
export { DEFAULT_PART_SIZE_BYTES, MAX_STREAMED_BLOB_BYTES } from './multipart-upload.js'
