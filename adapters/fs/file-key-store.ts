/**
 * KeyStore whose keys survive restarts: every key (current and retired) as a private JWK in one JSON
 * file, readable by its owner only (mode 0600), replaced atomically on every change. For
 * single-machine deployments with `--data-dir`; the private halves stay inside the process
 * otherwise, exactly as with MemoryKeyStore.
 */
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { JsonWebKey } from 'node:crypto'
import { PortUnavailableError } from '../../ports/errors.js'
import type { SigningAlgorithm } from '../../ports/key-store.js'
import { heldKeyFromPrivateJwk, privateJwkOf, type HeldKey } from '../shared/held-key.js'
import { KeyRing, type KeyRingStorage } from '../shared/key-ring.js'
import { writeFileAtomically } from './durable-file.js'
import { hasErrorCode, translatingFsErrors } from './fs-errors.js'

/** The adapter's name, as configuration and logs spell it. */
export const FILE_KEY_STORE_NAME = 'file'

export interface FileKeyStoreOptions {
  /** The JSON file of the keys (created with its directory on the first key). */
  readonly file: string
}

/** The file's content. */
interface KeyFile {
  readonly format: 'cairn.keys.v1'
  /** Oldest first. */
  readonly keys: readonly { readonly alg: SigningAlgorithm; readonly retired: boolean; readonly jwk: JsonWebKey }[]
}

const PORT = 'KeyStore'

/**
 * @example
 * const keys = new FileKeyStore({ file: '/var/lib/cairn/keys.json' })
 * const key = await keys.current('ES256')
 */
export class FileKeyStore extends KeyRing {
  constructor(options: FileKeyStoreOptions | string) {
    super(fileStorage(typeof options === 'string' ? options : options.file))
  }
}

function fileStorage(file: string): KeyRingStorage {
  return {
    load: () =>
      translatingFsErrors(PORT, async () => {
        let text: string
        try {
          text = await readFile(file, 'utf8')
        } catch (error) {
          if (hasErrorCode(error, 'ENOENT')) return []
          throw error
        }
        try {
          const content = JSON.parse(text) as KeyFile
          if (content.format !== 'cairn.keys.v1') throw new TypeError('unknown format')
          return await Promise.all(content.keys.map((key) => heldKeyFromPrivateJwk(key.jwk, key.alg, key.retired)))
        } catch (error) {
          // Keys that cannot be read are keys damaged at rest: the port cannot sign until someone repairs the file.
          throw new PortUnavailableError(PORT, `${file} is not a Cairn key file that can be read`, { cause: error })
        }
      }),
    save: (keys: readonly HeldKey[]) =>
      translatingFsErrors(PORT, async () => {
        const content: KeyFile = {
          format: 'cairn.keys.v1',
          keys: keys.map((key) => ({ alg: key.alg, retired: key.retired, jwk: privateJwkOf(key) })),
        }
        await mkdir(dirname(file), { recursive: true, mode: 0o700 })
        await writeFileAtomically(file, [new TextEncoder().encode(`${JSON.stringify(content, null, 2)}\n`)], 0o600)
      }),
  }
}
