import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isDisplayText } from './display-text.js'

describe('display text', () => {
  it.each([
    ['U+202E RIGHT-TO-LEFT OVERRIDE', 'invoice\u202Etxt.exe'],
    ['U+2066 LEFT-TO-RIGHT ISOLATE', 'a\u2066b'],
    ['U+200F RIGHT-TO-LEFT MARK', 'a\u200Fb'],
    ['NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['a C1 control', 'a\u0085b'],
    ['U+200B ZERO WIDTH SPACE', 'ad\u200Bmin'],
    ['U+FEFF BOM', '\uFEFFadmin'],
    ['U+2028 LINE SEPARATOR', 'a\u2028b'],
    ['a lone surrogate', 'a\uD800b'],
  ])('refuses %s', (_, text) => {
    expect(isDisplayText(text)).toBe(false)
  })

  it.each(['Grace Hopper', 'Ada 💻', '👩‍💻 dev (ZWJ)', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 flag tag sequence', 'עברית', 'العربية', 'Zoë Ångström', ''])('accepts %s', (text) => {
    expect(isDisplayText(text)).toBe(true)
  })

  it('accepts any text of letters, marks, numbers, punctuation, symbols and spaces', () => {
    const visible = fc.string({ unit: fc.constantFrom(...[...'aZ09 .,-_!?éß中😀']) })
    fc.assert(fc.property(visible, (text) => isDisplayText(text)))
  })
})
