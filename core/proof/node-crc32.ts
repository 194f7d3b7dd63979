/** CRC-32 on Node: zlib's native implementation, which a ZIP package's whole payload goes through. */
import { crc32 } from 'node:zlib'
import type { Crc32 } from './crc32.js'

export const nodeCrc32: Crc32 = (bytes) => crc32(bytes) >>> 0
