/**
 * Caller input inside an error sentence: at most a short prefix, so a megabyte of input never
 * becomes a megabyte of error (docs/decisions.md: echoed input). Control characters are escaped
 * so the sentence stays one readable line.
 */
export const QUOTED_INPUT_MAX_CHARACTERS = 64

/**
 * @example quoteInput('x'.repeat(1_000_000)) // '"xxxx…" (1000000 characters)'
 * @example quoteInput('tok_1') // 'tok_1' (short and printable: shown as is)
 * @example quoteInput('a b') // '"a b"'
 */
export function quoteInput(value: string): string {
  if (value.length <= QUOTED_INPUT_MAX_CHARACTERS && /^[\x21-\x7e]+$/.test(value)) return value
  // Whole code points only: never half of a surrogate pair.
  const shown = [...value.slice(0, 2 * QUOTED_INPUT_MAX_CHARACTERS)].slice(0, QUOTED_INPUT_MAX_CHARACTERS).join('')
  const escaped = JSON.stringify(shown)
  return shown.length < value.length ? `${escaped.slice(0, -1)}…" (${value.length} characters)` : escaped
}

/** Error sentences longer than this are cut, whatever produced them: the last line of defence. */
export const ERROR_SENTENCE_MAX_CHARACTERS = 1000

/** @example boundErrorSentence('a'.repeat(5000)).length // 1001 */
export function boundErrorSentence(message: string): string {
  return message.length > ERROR_SENTENCE_MAX_CHARACTERS ? `${message.slice(0, ERROR_SENTENCE_MAX_CHARACTERS)}…` : message
}
