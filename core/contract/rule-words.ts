/**
 * Every codec's rule in words, for error sentences: `limit must be an integer from 1 to 200`,
 * never a codec's type name. A codec may carry its own words (`explain`); otherwise they are
 * read from the JSON Schema it publishes, so the words and the document cannot disagree.
 */
import type * as t from 'io-ts'
import { toJsonSchema, type JsonSchema } from './json-schema.js'

const explained = new WeakMap<t.Any, string>()

/** Attach the words a codec's rule reads as (after "must be"). Returns the codec for chaining. */
export function explain<C extends t.Any>(codec: C, words: string): C {
  explained.set(codec, words)
  return codec
}

/**
 * @example ruleInWords(t.boolean) // 'true or false'
 */
export function ruleInWords(codec: t.Any): string {
  const words = explained.get(codec)
  if (words !== undefined) return words
  let schema: JsonSchema
  try {
    schema = toJsonSchema(codec, new Map())
  } catch {
    return 'a valid value'
  }
  return schemaInWords(schema)
}

const FORMATS: Readonly<Record<string, string>> = {
  'date-time': 'a real date and time in ISO 8601 form, such as 2026-06-25T12:00:00Z',
  date: 'a real calendar date in the form YYYY-MM-DD',
  uri: 'an absolute URL',
  binary: 'an uploaded file',
}

/** @example schemaInWords({ type: 'integer', minimum: 1, maximum: 200 }) // 'an integer from 1 to 200' */
export function schemaInWords(schema: JsonSchema): string {
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
  if (Array.isArray(schema.anyOf)) return [...new Set((schema.anyOf as JsonSchema[]).map(schemaInWords))].join(' or ')
  if (Array.isArray(schema.allOf)) return 'an object'
  switch (schema.type) {
    case 'string':
      return stringInWords(schema)
    case 'integer':
      return numberInWords('an integer', schema)
    case 'number':
      return numberInWords('a number', schema)
    case 'boolean':
      return 'true or false'
    case 'null':
      return 'null'
    case 'array':
      return 'a list'
    case 'object':
      return 'an object'
    default:
      return 'a JSON value'
  }
}

function stringInWords(schema: JsonSchema): string {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!
  if (schema.contentEncoding === 'base64url') return 'unpadded base64url text'
  if (typeof schema.description === 'string') return `a string: ${schema.description}`
  if (typeof schema.pattern === 'string') return `a string matching ${schema.pattern}`
  if (typeof schema.minLength === 'number' && schema.minLength > 0) return 'a non-empty string'
  return 'a string'
}

function numberInWords(kind: string, schema: JsonSchema): string {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number }
  if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`
  if (minimum !== undefined) return `${kind} of at least ${minimum}`
  if (maximum !== undefined) return `${kind} of at most ${maximum}`
  return kind
}
