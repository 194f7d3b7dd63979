/** Plain sentences from io-ts decode errors: what a client sent wrong, without internals. */
import type * as t from 'io-ts'
import { ruleInWords } from '../contract/rule-words.js'

/**
 * At most five distinct problems, each naming the field and its rule in words, never a codec's
 * type name and never the value sent (docs/decisions.md: input error wording).
 *
 * @example formatDecodeErrors(errors, 'query.limit') // 'query.limit must be an integer from 1 to 200'
 */
export function formatDecodeErrors(errors: t.Errors, root: string): string {
  const messages = new Set<string>()
  for (const error of errors) {
    const where = [root, ...propertyPath(error.context)].join('.')
    messages.add(error.value === undefined ? `${where} is required` : `${where} must be ${error.message ?? expectedWords(error.context)}`)
    if (messages.size === 5) break
  }
  return [...messages].join('; ')
}

/**
 * The rule of the value at the failing position: the innermost type, or the outermost union it
 * is a member of (a nullable field reads "a string or null", not two sentences).
 */
function expectedWords(context: t.Context): string {
  let at = context.length - 1
  if (at < 0) return 'a valid value'
  while (at > 0 && (context[at - 1]!.type as { _tag?: string })._tag === 'UnionType') at -= 1
  return ruleInWords(context[at]!.type as t.Any)
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
