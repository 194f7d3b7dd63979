/** Reads the deployment configuration file (`CAIRN_CONFIG`): OAuth clients and Business accounts. */
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { DeploymentConfig, EMPTY_DEPLOYMENT_CONFIG } from '../../core/config/deployment-config.js'
import { formatDecodeErrors } from '../../core/errors/decode-errors.js'

/** Throws an Error with a plain sentence when the file is missing, not JSON or not valid. */
export function loadDeploymentConfig(file: string | undefined): DeploymentConfig {
  if (file === undefined) return EMPTY_DEPLOYMENT_CONFIG
  // A common slip: the JSON itself where its file's path belongs. Say so instead of "cannot read".
  if (file.trimStart().startsWith('{')) {
    throw new Error('--config / CAIRN_CONFIG takes the path of a JSON file, not the JSON itself; write it to a file and pass the path')
  }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`Cannot read the configuration file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`The configuration file ${file} is not valid JSON`)
  }
  const decoded = DeploymentConfig.decode(json)
  if (E.isLeft(decoded)) throw new Error(`The configuration file ${file} is not valid: ${formatDecodeErrors(decoded.left, 'config')}`)
  return decoded.right
}
