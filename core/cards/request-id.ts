/** A client's own key for one request (a bid, a battle request): declared with the bodies it appears in. */
export { RequestId } from '../contract/accepted-bodies.js'
