/**
 * The `authority` statement every runtime object carries. It is NOT a component (the contract has
 * exactly 184): it is one inline codec, identical everywhere, so no runtime response can be read as
 * proof, identity, ownership or head authority (spec: "held bytes win").
 */
import * as t from 'io-ts'

/**
 * What Cairn asserts about its own answer: it coordinates only, it is never proof authority, and
 * exact held sealed bytes win over it.
 *
 * @example RuntimeAuthority.is(RUNTIME_AUTHORITY) // true
 */
export const RuntimeAuthority = t.type(
  { role: t.literal('coordination'), proofAuthority: t.literal(false), heldBytesWin: t.literal(true) },
  'RuntimeAuthority',
)

/** The one value `RuntimeAuthority` admits; use cases put it on every wire they build. */
export const RUNTIME_AUTHORITY: t.TypeOf<typeof RuntimeAuthority> = { role: 'coordination', proofAuthority: false, heldBytesWin: true }
