/**
 * The top-level entries of one PDF dictionary (ISO 32000-1 §7.3.7), each value kept as its exact
 * source text, so an incremental update can repeat a trailer's entries byte for byte. Values are
 * skipped, not interpreted: strings (§7.3.4, balanced parentheses and escapes), hex strings, names,
 * arrays and dictionaries (nesting counted in a loop, never recursion), numbers, references and
 * keywords; comments (§7.2.3) between tokens are skipped.
 */

export interface DictionaryEntry {
  /** The key without its slash, as written (`Info`, `ID`). */
  readonly key: string
  /** The value's source text (`12 0 R`, `[<ab><cd>]`). */
  readonly value: string
}

const WHITESPACE = new Set(['\0', '\t', '\n', '\f', '\r', ' '])
const DELIMITERS = new Set(['(', ')', '<', '>', '[', ']', '{', '}', '/', '%'])
const isRegular = (char: string | undefined) => char !== undefined && !WHITESPACE.has(char) && !DELIMITERS.has(char)

/**
 * The entries of the dictionary starting at `text[start]` (`<<`), or `undefined` when it is not a
 * well-formed dictionary.
 *
 * @example dictionaryEntries('<</Size 3/Root 1 0 R/ID[<a><b>]>>', 0) // [{ key: 'Size', value: '3' }, { key: 'Root', value: '1 0 R' }, { key: 'ID', value: '[<a><b>]' }]
 */
export function dictionaryEntries(text: string, start: number): DictionaryEntry[] | undefined {
  if (!text.startsWith('<<', start)) return undefined
  const entries: DictionaryEntry[] = []
  let at = start + 2
  for (;;) {
    at = skipBlank(text, at)
    if (text.startsWith('>>', at)) return entries
    if (text[at] !== '/') return undefined
    const keyEnd = nameEnd(text, at)
    const valueStart = skipBlank(text, keyEnd)
    const valueEnd = objectEnd(text, valueStart)
    if (valueEnd === undefined) return undefined
    entries.push({ key: text.slice(at + 1, keyEnd), value: text.slice(valueStart, valueEnd) })
    at = valueEnd
  }
}

function skipBlank(text: string, from: number): number {
  let at = from
  while (at < text.length) {
    if (WHITESPACE.has(text[at]!)) at += 1
    else if (text[at] === '%') while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at += 1
    else break
  }
  return at
}

function nameEnd(text: string, slash: number): number {
  let at = slash + 1
  while (isRegular(text[at])) at += 1
  return at
}

/** The end of the object starting at `from`: one token, a reference `n g R`, or a whole array or dictionary. */
function objectEnd(text: string, from: number): number | undefined {
  let depth = 0
  let at = from
  do {
    at = skipBlank(text, at)
    if (at >= text.length) return undefined
    const char = text[at]!
    if (text.startsWith('<<', at) || char === '[') {
      depth += 1
      at += char === '[' ? 1 : 2
    } else if (text.startsWith('>>', at) || char === ']') {
      if (depth === 0) return undefined
      depth -= 1
      at += char === ']' ? 1 : 2
    } else {
      const end = tokenEnd(text, at)
      if (end === undefined) return undefined
      at = depth === 0 ? referenceEnd(text, at, end) : end
    }
  } while (depth > 0)
  return at
}

/** One string, hex string, name or regular token. */
function tokenEnd(text: string, at: number): number | undefined {
  const char = text[at]
  if (char === '(') return literalStringEnd(text, at)
  if (char === '<') {
    const close = text.indexOf('>', at)
    return close === -1 ? undefined : close + 1
  }
  if (char === '/') return nameEnd(text, at)
  if (!isRegular(char)) return undefined
  let end = at
  while (isRegular(text[end])) end += 1
  return end
}

function literalStringEnd(text: string, open: number): number | undefined {
  let depth = 0
  for (let at = open; at < text.length; at++) {
    const char = text[at]
    if (char === '\\') at += 1
    else if (char === '(') depth += 1
    else if (char === ')' && --depth === 0) return at + 1
  }
  return undefined
}

/** A top-level value `12 0 R` is one reference: after an integer, take ` <integer> R` too. */
function referenceEnd(text: string, start: number, end: number): number {
  if (!/^\d+$/u.test(text.slice(start, end))) return end
  const reference = /^\s+\d+\s+R(?![^\0\t\n\f\r ()<>[\]{}/%])/u.exec(text.slice(end, end + 32))
  return reference ? end + reference[0].length : end
}
