/** Reads the deployment configuration file (`CAIRN_CONFIG`): OAuth clients and Business accounts. */
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { DeploymentConfig, EMPTY_DEPLOYMENT_CONFIG } from '../../core/config/deployment-config.js'
import { formatDecodeErrors } from '../../core/errors/decode-errors.js'
import { unknownKeys } from '../../core/config/unknown-keys.js'

/** ` at line L, column C` from a JSON.parse message's "at position N" (V8), or nothing. */
function whereInText(text: string, message: string): string {
  const position = /at position (\d+)/u.exec(message)?.[1]
  if (position === undefined) return /Unexpected end of JSON input/u.test(message) ? ' (it ends too early)' : ''
  const before = text.slice(0, Number(position))
  const line = before.split('\n').length
  return ` at line ${line}, column ${Number(position) - before.lastIndexOf('\n')}`
}

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
  } catch (error) {
    throw new Error(`The configuration file ${file} is not valid JSON${whereInText(text, (error as Error).message)}: ${(error as Error).message.replace(/ in JSON at position \d+.*$/su, '')}`)
  }
  const unknown = unknownKeys(DeploymentConfig, json, 'config')
  if (unknown.length > 0) throw new Error(`The configuration file ${file} has ${unknown.length === 1 ? 'a member' : 'members'} Cairn does not know: ${unknown.slice(0, 5).join(', ')} (a typo? docs: README "Configuration")`)
  const decoded = DeploymentConfig.decode(json)
  if (E.isLeft(decoded)) throw new Error(`The configuration file ${file} is not valid: ${formatDecodeErrors(decoded.left, 'config')}`)
  return decoded.right
}
