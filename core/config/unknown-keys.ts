/**
 * The members a value carries that its io-ts codec does not declare, with their paths
 * (`config.clients.0.redirectUri`): a configuration file refuses them, so a typo is an error
 * instead of a setting silently ignored. Walks objects (type, partial, intersections of them),
 * arrays and records; anything else declares no members to compare.
 */
import type * as t from 'io-ts'

type Tagged = t.Any & { readonly _tag?: string }

/** The declared property codecs of an object codec, or undefined when it is not one. */
function declaredProps(codec: Tagged): Record<string, t.Any> | undefined {
  switch (codec._tag) {
    case 'InterfaceType':
    case 'PartialType':
      return (codec as unknown as t.InterfaceType<t.Props>).props
    case 'ExactType':
    case 'ReadonlyType':
      return declaredProps((codec as unknown as t.ExactType<t.Any>).type)
    case 'IntersectionType': {
      const parts = (codec as unknown as t.IntersectionType<t.Any[]>).types.map(declaredProps)
      return parts.every((part) => part !== undefined) ? Object.assign({}, ...parts) : undefined
    }
    default:
      return undefined
  }
}

/** @example unknownKeys(DeploymentConfig, { client: [] }, 'config') // ['config.client'] */
export function unknownKeys(codec: t.Any, value: unknown, path: string): string[] {
  const tagged = codec as Tagged
  if (tagged._tag === 'ArrayType' && Array.isArray(value)) {
    const item = (codec as unknown as t.ArrayType<t.Any>).type
    return value.flatMap((element, index) => unknownKeys(item, element, `${path}.${index}`))
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
  const props = declaredProps(tagged)
  if (!props) return []
  return Object.entries(value).flatMap(([key, member]) => (key in props ? unknownKeys(props[key]!, member, `${path}.${key}`) : [`${path}.${key}`]))
}
