/**
 * A Store stream declared once with the io-ts codec of its entries, as typedCollection does for
 * documents: appends take the event type, reads decode (an entry the codec refuses is a corrupt
 * store, and says which field). Code that goes through one never casts between stored `Json` and
 * its events.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import type { Json, StreamEntry, Write } from '../../ports/store.js'
import { failedPaths } from './typed-collection.js'

export interface TypedStream<A> {
  readonly name: string
  /** The event an entry read from this stream holds. */
  decode(entry: Pick<StreamEntry, 'sequence' | 'value'>): A
  /** An append that takes the stream's next position, whatever its head then (`appendNext`). */
  appendNext(value: A): Write
}

/** An entry the codec refused: the Store holds what no append of ours could have put there. */
export class CorruptStreamEntryError extends Error {
  constructor(stream: string, sequence: number, errors: t.Errors) {
    super(`Stream entry ${stream}#${sequence} does not match its codec at ${failedPaths(errors)}`)
    this.name = 'CorruptStreamEntryError'
  }
}

/**
 * @example const actions = typedStream('ledger.actions', ActionEventCodec); await store.commit([actions.appendNext(event)])
 */
export function typedStream<A>(name: string, codec: t.Type<A, unknown, unknown>): TypedStream<A> {
  // The codec's output is the event as JSON: every codec here describes JSON values.
  const encode = (value: A) => codec.encode(value) as Json
  return {
    name,
    decode(entry) {
      const decoded = codec.decode(entry.value)
      if (E.isLeft(decoded)) throw new CorruptStreamEntryError(name, entry.sequence, decoded.left)
      return decoded.right
    },
    appendNext: (value) => ({ kind: 'appendNext', stream: name, value: encode(value) }),
  }
}
