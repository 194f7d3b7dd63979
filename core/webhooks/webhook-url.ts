/**
 * Which URLs a webhook may target: https; plain http only to loopback when the deployment allows it;
 * no credentials in the URL; literal private, link-local and metadata addresses refused unless the
 * deployment allows private networks. Names are checked again when a delivery resolves them
 * (resolve-then-connect, adapters/system/http-webhook-sender.ts).
 */
import { BlockList, isIP } from 'node:net'
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

/** Addresses no webhook reaches unless the deployment allows private networks. */
export const PRIVATE_ADDRESSES = (() => {
  const list = new BlockList()
  for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
    list.addSubnet(network, prefix, 'ipv4')
  }
  for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) list.addSubnet(network, prefix, 'ipv6')
  return list
})()

/** Whether `address` (an IP literal) is private, loopback, link-local, multicast or metadata. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return PRIVATE_ADDRESSES.check(address, 'ipv4')
  if (family !== 6) return true
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? PRIVATE_ADDRESSES.check(mapped[1]!, 'ipv4') : PRIVATE_ADDRESSES.check(address, 'ipv6')
}

const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)

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
  if ((loopback || (isIP(literal) !== 0 && isPrivateAddress(literal))) && !policy.allowPrivateNetworks) {
    return E.left(invalidInput('url must reach a public address; private, loopback, link-local and metadata addresses are refused'))
  }
  url.hash = ''
  return E.right(url)
}
