/**
 * How component schemas are declared: `struct` for objects (required and optional properties,
 * the spec's `required` list is exactly the first argument's keys), `alias` for non-object
 * schemas. Every component is an io-ts codec named after the component.
 */
import * as t from 'io-ts'
import { aliasOf, annotate, type JsonSchema } from './json-schema.js'

export type Struct<R extends t.Props, O extends t.Props> = t.IntersectionC<[t.TypeC<R>, t.PartialC<O>]>

/**
 * An object component: `required` keys are the spec's required list; `optional` keys may be absent.
 * Unknown properties are kept (forward compatible), as JSON Schema does by default.
 *
 * @example const Ok = struct('OkResponse', { ok: t.literal(true) }, { note: t.string })
 */
export function struct<R extends t.Props, O extends t.Props = {}>(name: string, required: R, optional?: O, description?: string): Struct<R, O> {
  const codec = t.intersection([t.type(required), t.partial(optional ?? ({} as O))], name)
  if (description) describe(codec, description)
  return codec
}

const descriptions = new WeakMap<t.Any, string>()

/** Attach a human description to a component (published in the OpenAPI document). */
export function describe<C extends t.Any>(codec: C, description: string): C {
  descriptions.set(codec, description)
  return codec
}

/** The description attached with `describe` or `struct`, if any. */
export function descriptionOf(codec: t.Any): string | undefined {
  return descriptions.get(codec)
}

/**
 * A non-object component (string, union, binary body) under its own name. Its JSON Schema is that
 * of `codec` (components inside it stay `$ref`s) unless `schema` is given.
 *
 * @example const V124ApplicationId = alias('V124ApplicationId', NonEmptyString)
 */
export function alias<C extends t.Mixed>(name: string, codec: C, schema?: JsonSchema): t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  const named = new t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown>(name, codec.is, codec.validate, codec.encode)
  return schema ? annotate(named, schema) : aliasOf(named, codec)
}
