import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { checkProfileFields } from './profile-fields.js'

describe('profile fields', () => {
  const fields = { displayName: 'Ada Lovelace', email: null, localUid: 'laptop' }
  it('refuses a display name with a bidi override, NUL or a zero-width space', () => {
    for (const displayName of ['Ada\u202Eecalevol', 'Ada\u0000', 'Ad\u200Ba']) {
      const result = checkProfileFields({ ...fields, displayName })
      expect(E.isLeft(result) && result.left.message).toMatch(/^displayName must be at most 128 characters of well-formed Unicode without control, format/)
    }
  })
  it('accepts right-to-left scripts and emoji sequences', () => {
    for (const displayName of ['עדה', '👩‍💻 Ada']) expect(E.isRight(checkProfileFields({ ...fields, displayName }))).toBe(true)
  })
})
