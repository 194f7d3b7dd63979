/** Short builders of Store writes, so suite bodies read as the commits they make. */
import type { Expectation, Json, Write } from '../../ports/store.js'

export const absent: Expectation = { kind: 'absent' }
export const anyVersion: Expectation = { kind: 'any' }

/** @example atVersion(2) // { kind: 'version', version: 2 } */
export function atVersion(version: number): Expectation {
  return { kind: 'version', version }
}

export function put(collection: string, key: string, value: Json, expect: Expectation = anyVersion): Write {
  return { kind: 'put', collection, key, value, expect }
}

export function remove(collection: string, key: string, expect: Expectation = anyVersion): Write {
  return { kind: 'delete', collection, key, expect }
}

export function append(stream: string, value: Json, expectHead: string | null): Write {
  return { kind: 'append', stream, value, expectHead }
}

/** An append that takes the next position, whatever head the stream has when the commit applies. */
export function appendNext(stream: string, value: Json): Write {
  return { kind: 'appendNext', stream, value }
}
