/** A client's own key for one request (a bid, a battle request): a retry with it answers the first. */
import * as t from 'io-ts'

export const RequestId = t.refinement(t.string, (id) => /^[A-Za-z0-9._:-]{1,128}$/.test(id), 'RequestId')
