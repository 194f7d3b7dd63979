/**
 * The two shapes of caller input no operation can hold, refused once where every operation's input
 * is decoded (`executeOperation`), before any codec, digest or Store sees it:
 * - a string or member name with a lone UTF-16 surrogate (JSON's `"\ud800"` escape parses to one):
 *   no Unicode text, RFC 8785 canonical JSON cannot encode it, and UTF-8 stores would alias it;
 * - arrays and objects nested deeper than {@link MAX_INPUT_DEPTH}: every recursive walk after
 *   decoding (canonical JSON, deep freeze, stored copies) would otherwise run out of stack.
 * The walk itself keeps its own stack, so hostile depth cannot exhaust the call stack here.
 */

import { quoteInput } from '../errors/quote-input.js'

/** Levels of arrays and objects a caller's input may nest (docs/decisions.md). */
export const MAX_INPUT_DEPTH = 64

/** The same test as `String.prototype.isWellFormed` (ES2024), with a fallback for older engines. */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: () => boolean }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u.test(text)

/**
 * A sentence naming the first problem of `value` (with `root` as the path's first step), or
 * `undefined` when it is representable. Only arrays and plain objects are walked: bytes
 * (`Uint8Array` of an uploaded file) are data, not structure.
 *
 * @example untrustedJsonProblem({ a: '\ud800' }, 'body') // 'body.a must be well-formed Unicode text (it has a lone UTF-16 surrogate)'
 */
export function untrustedJsonProblem(value: unknown, root: string): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : stringProblem({ value, key: root, parent: undefined, depth: 0 })
  if (!isStructure(value)) return undefined
  // Only structures are queued; strings are checked where they are met, so a large body costs few allocations.
  const pending: Frame[] = [{ value, key: root, parent: undefined, depth: 0 }]
  for (let frame = pending.pop(); frame !== undefined; frame = pending.pop()) {
    if (frame.depth >= MAX_INPUT_DEPTH) return `${root} must not nest arrays and objects more than ${MAX_INPUT_DEPTH} levels deep`
    const item = frame.value as object
    const keys = Array.isArray(item) ? undefined : Object.keys(item)
    const count = keys === undefined ? (item as unknown[]).length : keys.length
    for (let index = 0; index < count; index++) {
      const key = keys === undefined ? undefined : keys[index]!
      if (key !== undefined && !isWellFormed(key)) return `${pathOf(frame)} must not have a member name with a lone UTF-16 surrogate`
      const member = key === undefined ? (item as unknown[])[index] : (item as Record<string, unknown>)[key]
      if (typeof member === 'string') {
        if (!isWellFormed(member)) return stringProblem({ value: member, key: key ?? String(index), parent: frame, depth: frame.depth + 1 })
      } else if (isStructure(member)) {
        pending.push({ value: member, key: key ?? String(index), parent: frame, depth: frame.depth + 1 })
      }
    }
  }
  return undefined
}

function stringProblem(frame: Frame): string {
  return `${pathOf(frame)} must be well-formed Unicode text (it has a lone UTF-16 surrogate)`
}

/** One value still to look at; its path is spelled only when it is reported. */
interface Frame {
  readonly value: unknown
  readonly key: string
  readonly parent: Frame | undefined
  readonly depth: number
}

/** The reported path: each member name quoted as caller input is (`quoteInput`), the root as given. */
function pathOf(frame: Frame): string {
  const keys: string[] = []
  for (let at: Frame | undefined = frame; at !== undefined; at = at.parent) keys.push(at.parent === undefined ? at.key : quoteInput(at.key))
  return keys.reverse().join('.')
}

function isStructure(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return true
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}
