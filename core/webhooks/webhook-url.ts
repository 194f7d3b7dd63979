/**
 * Which URLs a webhook may target: https; plain http only to loopback when the deployment allows it;
 * no credentials in the URL; literal private, link-local and metadata addresses refused unless the
 * deployment allows private networks. Names are checked again when a delivery resolves them
 * (resolve-then-connect, adapters/system/http-webhook-sender.ts).
 */
import ipaddr from 'ipaddr.js'
import * as E from 'fp-ts/lib/Either.js'
import type { Either } from 'fp-ts/lib/Either.js'
import { invalidInput, type DomainError } from '../errors/domain-error.js'

/** Where deliveries may go beyond the public internet over https. */
export interface WebhookNetworkPolicy {
  /** Allow `http://` to loopback addresses and `localhost` (development). @default false */
  readonly allowHttpLoopback?: boolean
  /** Allow private, loopback, link-local and metadata addresses. @default false */
  readonly allowPrivateNetworks?: boolean
}

/**
 * IPv6 prefixes whose addresses carry an IPv4 address: IPv4-compatible (`::/96`) and IPv4-mapped
 * (RFC 4291), IPv4-translated (RFC 6145), NAT64 (RFC 6052, RFC 8215), 6to4 (RFC 3056) and Teredo
 * (RFC 4380). Stacks and gateways may deliver them to the embedded IPv4 address, so no judgement of
 * the IPv6 address itself is safe; every one of them is refused (docs/decisions.md).
 */
const IPV4_EMBEDDING_PREFIXES = ['::/96', '::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '2002::/16', '2001::/32'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr))

/**
 * Whether `address` (an IP literal) is anything but a public unicast address: private, loopback,
 * link-local, unique-local, carrier-grade NAT, multicast, reserved, unspecified or metadata
 * (169.254.169.254 is link-local), or an IPv6 form embedding an IPv4 address; text that is no IP
 * address counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && IPV4_EMBEDDING_PREFIXES.some((prefix) => (parsed as ipaddr.IPv6).match(prefix))) return true
  return parsed.range() !== 'unicast'
}

/** `localhost`, any name under it (RFC 6761 §6.3), with or without the root's trailing dot, and loopback literals. */
const isLoopbackHost = (host: string): boolean => {
  const name = host.toLowerCase().replace(/\.$/, '')
  return name === 'localhost' || name.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** @example checkWebhookUrl('https://hooks.example.com/cairn', {}) // right(URL) */
export function checkWebhookUrl(text: string, policy: WebhookNetworkPolicy): Either<DomainError, URL> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return E.left(invalidInput('url must be an absolute https URL'))
  }
  if (url.username || url.password) return E.left(invalidInput('url must not carry credentials; the signature authenticates Cairn'))
  const loopback = isLoopbackHost(url.hostname)
  if (url.protocol === 'http:' && !(loopback && policy.allowHttpLoopback)) return E.left(invalidInput('url must use https (plain http only to loopback, when the deployment allows it)'))
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return E.left(invalidInput('url must use https'))
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  if ((loopback || (ipaddr.isValid(literal) && isPrivateAddress(literal))) && !policy.allowPrivateNetworks) {
    return E.left(invalidInput('url must reach a public address; private, loopback, link-local and metadata addresses are refused'))
  }
  url.hash = ''
  return E.right(url)
}
