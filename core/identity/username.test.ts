import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { normaliseUsername } from './username.js'

describe('normaliseUsername', () => {
  it('lowercases ASCII usernames', () => {
    expect(normaliseUsername('Ada.Lovelace_1-x')).toEqual(E.right('ada.lovelace_1-x'))
  })

  it.each([['ab'], ['a'.repeat(33)], ['-ada'], ['ada.'], ['ad a'], [' ada'], ['ада'], ['\u212Aelvin'], ['a/b']])('refuses %j', (name) => {
    expect(E.isLeft(normaliseUsername(name))).toBe(true)
  })
})
