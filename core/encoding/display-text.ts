/**
 * Text people read (display names, labels): no character that hides or reorders what is shown.
 * Refused: Unicode controls (Cc: NUL, escapes, C1), format characters (Cf: bidi overrides such as
 * U+202E, zero-width spaces, BOM), lone surrogates (Cs) and line/paragraph separators — except
 * U+200D ZERO WIDTH JOINER and the tag characters U+E0020–U+E007F, which emoji sequences need
 * (docs/decisions.md: display text).
 */
const HIDDEN = /(?![\u200D\u{E0020}-\u{E007F}])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u

/** @example isDisplayText('Ada ‍💻') // true; isDisplayText('evil\u202Etxt.exe') // false */
export function isDisplayText(text: string): boolean {
  return !HIDDEN.test(text)
}
