/**
 * Turns io-ts codecs into JSON Schema 2020-12 (the dialect of OpenAPI 3.1). The walk reads the
 * codecs' own structure, so the published document is derived from the same values that decode
 * requests. Codecs io-ts cannot describe (custom `t.Type`s) carry an annotation.
 */
import * as t from 'io-ts'

export type JsonSchema = Record<string, unknown>

const annotations = new WeakMap<t.Any, JsonSchema>()

/** Attach the JSON Schema a custom codec publishes as. Returns the codec for chaining. */
export function annotate<C extends t.Any>(codec: C, schema: JsonSchema): C {
  annotations.set(codec, schema)
  return codec
}

const aliases = new WeakMap<t.Any, t.Any>()

/** Publish `codec` with the schema of `target` (used for named non-object components). */
export function aliasOf<C extends t.Any>(codec: C, target: t.Any): C {
  aliases.set(codec, target)
  return codec
}

/** Where named components live, so nested uses become `$ref`s. */
export type ComponentNames = ReadonlyMap<t.Any, string>

/**
 * JSON Schema of `codec`. A codec that is itself a named component becomes a `$ref`, unless it is
 * `root` (the component being defined).
 *
 * @example toJsonSchema(t.type({ ok: t.boolean }), new Map()) // { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
 */
export function toJsonSchema(codec: t.Any, names: ComponentNames, root?: t.Any): JsonSchema {
  const name = codec === root ? undefined : names.get(codec)
  if (name !== undefined) return { $ref: `#/components/schemas/${name}` }
  const annotated = annotations.get(codec)
  if (annotated) return { ...annotated }
  const walk = (c: t.Any) => toJsonSchema(c, names, root)
  const target = aliases.get(codec)
  if (target) return walk(target)
  const type = codec as t.Any & { _tag?: string }
  switch (type._tag) {
    case 'StringType':
      return { type: 'string' }
    case 'NumberType':
      return { type: 'number' }
    case 'BooleanType':
      return { type: 'boolean' }
    case 'NullType':
      return { type: 'null' }
    case 'UnknownType':
    case 'AnyType':
      return {}
    case 'UnknownRecordType':
    case 'AnyDictionaryType': // t.UnknownRecord
      return { type: 'object' }
    case 'UnknownArrayType':
    case 'AnyArrayType': // t.UnknownArray
      return { type: 'array' }
    case 'LiteralType':
      return { const: (codec as t.LiteralType<string | number | boolean>).value }
    case 'KeyofType':
      return { type: 'string', enum: Object.keys((codec as t.KeyofType<Record<string, unknown>>).keys) }
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: walk((codec as unknown as t.ArrayType<t.Any>).type) }
    case 'ReadonlyType':
    case 'ExactType':
      return walk((codec as unknown as t.ReadonlyType<t.Any>).type)
    case 'RefinementType':
      return walk((codec as unknown as t.RefinementType<t.Any>).type)
    case 'DictionaryType':
      return { type: 'object', additionalProperties: walk((codec as unknown as t.DictionaryType<t.Any, t.Any>).codomain) }
    case 'InterfaceType':
      return objectSchema((codec as t.InterfaceType<t.Props>).props, true, walk)
    case 'PartialType':
      return objectSchema((codec as t.PartialType<t.Props>).props, false, walk)
    case 'IntersectionType':
      return intersectionSchema((codec as unknown as t.IntersectionType<t.Any[]>).types, walk)
    case 'UnionType': {
      const members = (codec as unknown as t.UnionType<t.Any[]>).types
      const nullable = members.filter((m) => (m as { _tag?: string })._tag !== 'NullType')
      if (nullable.length === 1 && members.length === 2) return { anyOf: [walk(nullable[0]!), { type: 'null' }] }
      return { anyOf: members.map(walk) }
    }
    default:
      throw new Error(`No JSON Schema for codec ${codec.name}: annotate it`)
  }
}

function objectSchema(props: t.Props, required: boolean, walk: (c: t.Any) => JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  for (const [key, value] of Object.entries(props)) properties[key] = walk(value)
  const keys = Object.keys(props)
  return required && keys.length > 0 ? { type: 'object', properties, required: keys } : { type: 'object', properties }
}

/** Intersections of plain objects merge into one object schema; anything else stays `allOf`. */
function intersectionSchema(types: readonly t.Any[], walk: (c: t.Any) => JsonSchema): JsonSchema {
  const parts = types.map(walk)
  const mergeable = parts.every((p) => p.type === 'object' && p.$ref === undefined && p.additionalProperties === undefined)
  if (!mergeable) return { allOf: parts }
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const part of parts) {
    Object.assign(properties, part.properties as Record<string, JsonSchema>)
    required.push(...((part.required as string[] | undefined) ?? []))
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
}
