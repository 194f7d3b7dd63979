/** Plain sentences from io-ts decode errors: what a client sent wrong, without internals. */
import type * as t from 'io-ts'

/**
 * At most five distinct problems, each naming where and what was expected.
 *
 * @example formatDecodeErrors(errors, 'body') // 'body.amountUsd must be DecimalString'
 */
export function formatDecodeErrors(errors: t.Errors, root: string): string {
  const messages = new Set<string>()
  for (const error of errors) {
    const where = [root, ...propertyPath(error.context)].join('.')
    const expected = error.context[error.context.length - 1]?.type.name ?? 'a valid value'
    messages.add(error.value === undefined ? `${where} is required` : `${where} must be ${expected}`)
    if (messages.size === 5) break
  }
  return [...messages].join('; ')
}

/** io-ts intersections and unions add a level keyed "0", "1"…; keep only property names and array indexes. */
function propertyPath(context: t.Context): string[] {
  const keys: string[] = []
  for (let i = 1; i < context.length; i++) {
    const parentTag = (context[i - 1]!.type as { _tag?: string })._tag
    if (parentTag === 'IntersectionType' || parentTag === 'UnionType') continue
    keys.push(context[i]!.key)
  }
  return keys
}
