/**
 * Which TextGenerator Creator runs and Live Twin replies use: the deployment configuration names
 * it (`"textGenerator": { "kind": "builtin" | "openai", "baseUrl", "model" }`, default `builtin`);
 * the API key comes only from the environment (`CAIRN_OPENAI_API_KEY` or `OPENAI_API_KEY`), and
 * `CAIRN_TEXT_BASE_URL` / `CAIRN_TEXT_MODEL` fill what the file leaves out.
 */
import { DeterministicTextGenerator } from '../../adapters/memory/index.js'
import { OpenAiTextGenerator } from '../../adapters/openai/index.js'
import type { DeploymentConfig } from '../../core/config/deployment-config.js'
import type { TextGenerator } from '../../ports/text-generator.js'

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1'

export function selectTextGenerator(deployment: DeploymentConfig, env: NodeJS.ProcessEnv = process.env): TextGenerator {
  const config = deployment.textGenerator ?? { kind: 'builtin' }
  if (config.kind === 'builtin') return new DeterministicTextGenerator()
  const model = config.model ?? env['CAIRN_TEXT_MODEL']
  if (!model) throw new Error('The openai text generator needs a model: "textGenerator": { "model": … } or CAIRN_TEXT_MODEL')
  const apiKey = env['CAIRN_OPENAI_API_KEY'] ?? env['OPENAI_API_KEY']
  return new OpenAiTextGenerator({ baseUrl: config.baseUrl ?? env['CAIRN_TEXT_BASE_URL'] ?? DEFAULT_OPENAI_BASE_URL, model, ...(apiKey ? { apiKey } : {}) })
}
