/**
 * Which network address a request comes from, for limits a client cannot dodge by renaming
 * itself. The peer of the connection is the client unless the deployment names trusted proxies
 * (`network.trustedProxies`, addresses or CIDR ranges): then `X-Forwarded-For` is read from the
 * right, each hop a trusted proxy added, and the first address no trusted proxy stands for is the
 * client (the rightmost-untrusted rule; a client can prepend anything, never append). By default no
 * proxy is trusted and the header is ignored.
 */
import ipaddr from 'ipaddr.js'

/** Dotted-quad IPv4 or IPv6 text only (ipaddr.js alone also takes inet_aton forms such as `10.0.0`). */
const isStrictAddress = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text))

/** Is `text` an IP address or a CIDR range? (The deployment configuration checks `trustedProxies` with it.) */
export function isAddressOrRange(text: string): boolean {
  return isStrictAddress(text) || isRange(text)
}

function isRange(text: string): boolean {
  if (!isStrictAddress(text.slice(0, text.lastIndexOf('/')))) return false
  try {
    ipaddr.parseCIDR(text)
    return true
  } catch {
    return false
  }
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6

/** IPv4-mapped IPv6 (`::ffff:a.b.c.d`, how a dual-stack socket reports IPv4 peers) as the IPv4 address. */
function parsed(text: string): Parsed | undefined {
  const trimmed = text.trim().replace(/^\[|\](:\d+)?$/g, '')
  if (!isStrictAddress(trimmed)) return undefined
  const address = ipaddr.parse(trimmed)
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address
}

/** A matcher for the configured proxies. */
export function trustedProxyMatcher(trusted: readonly string[]): (address: Parsed) => boolean {
  const ranges = trusted.map((entry) => (isRange(entry) ? ipaddr.parseCIDR(entry) : ([ipaddr.parse(entry), ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128] as [Parsed, number])))
  return (address) => ranges.some(([range, bits]) => range.kind() === address.kind() && address.match([range, bits] as never))
}

/**
 * The client's address: the socket peer, or when that peer is a trusted proxy the rightmost
 * `X-Forwarded-For` entry no trusted proxy stands for. `undefined` when the peer is unknown (an
 * in-process call) or an entry is no address.
 *
 * @example clientAddressOf('10.0.0.2', '203.0.113.7, 10.0.0.1', ['10.0.0.0/8']) // '203.0.113.7'
 */
export function clientAddressOf(peer: string | undefined, forwardedFor: string | null, trusted: readonly string[]): string | undefined {
  const peerAddress = peer === undefined ? undefined : parsed(peer)
  if (peerAddress === undefined) return undefined
  const isTrusted = trustedProxyMatcher(trusted)
  let client = peerAddress
  if (forwardedFor !== null && trusted.length > 0) {
    const hops = forwardedFor.split(',').reverse()
    for (const hop of hops) {
      if (!isTrusted(client)) break
      const next = parsed(hop)
      if (next === undefined) break // an entry that is no address: stop at the last proxy we trust
      client = next
    }
  }
  return client.toString()
}

/**
 * The key a per-address limit counts under: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network, which a single client may roam freely).
 *
 * @example addressLimitKey('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 */
export function addressLimitKey(address: string): string {
  const found = parsed(address)
  if (found === undefined) return address
  if (found.kind() === 'ipv4') return found.toString()
  const parts = (found as ipaddr.IPv6).parts.slice(0, 4)
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`
}
