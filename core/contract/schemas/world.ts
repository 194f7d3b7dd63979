/** World components: the public world snapshot and Live Twin profile surfaces. */
import * as t from 'io-ts'
import { struct } from '../define.js'
import { JsonObject } from '../primitives.js'

/** Open answer of the World routes; which properties appear depends on the route. */
export const WorldPublicResponse = struct(
  'WorldPublicResponse',
  {},
  {
    ok: t.boolean,
    profile: JsonObject,
    availability: JsonObject,
    thread: JsonObject,
    reply: JsonObject,
    districts: t.array(JsonObject),
    featuredVentures: t.array(JsonObject),
    discovery: JsonObject,
  },
  'World answer. Profile routes: `profile` (public Live Twin surface), `availability` (preview), `thread` (visitor thread context) and, after a visitor message, `reply`. /api/world/public: `districts` (open), `featuredVentures`, `discovery`.',
)

export const worldComponents = { WorldPublicResponse } as const
