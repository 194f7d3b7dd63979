/**
 * All 184 component schemas by name: the 178 the spec names (`Svc` → `Cairn`) and the six it
 * implies (webhook endpoint bodies and the endpoint itself, the test-event body, release records).
 */
import type * as t from 'io-ts'
import { commonComponents } from './schemas/common.js'
import { publicComponents } from './schemas/public.js'
import { runtimeComponents } from './schemas/runtime/index.js'

export const components = { ...commonComponents, ...publicComponents, ...runtimeComponents } as const

export type Components = typeof components
export type ComponentName = keyof Components

/** The decoded type of a component. */
export type ComponentType<N extends ComponentName> = t.TypeOf<Components[N]>

/** Component names keyed by codec, so nested uses publish as `$ref`s. */
export const componentNames: ReadonlyMap<t.Any, string> = new Map(
  Object.entries(components).map(([name, codec]) => [codec as t.Any, name]),
)
