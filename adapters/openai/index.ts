export { OpenAiTextGenerator, OPENAI_TEXT_GENERATOR_NAME, type OpenAiTextGeneratorOptions } from './openai-text-generator.js'
