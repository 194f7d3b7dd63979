/**
 * Which address a request counts as: the connection's peer unless a trusted proxy forwarded it;
 * then the rightmost X-Forwarded-For entry no trusted proxy stands for. A client cannot pick its
 * own address by sending the header, and IPv6 clients count by /64.
 */
import { describe, expect, it } from 'vitest'
import { addressLimitKey, clientAddressOf, isAddressOrRange } from './client-address.js'

describe('clientAddressOf', () => {
  it('ignores X-Forwarded-For unless the peer is a trusted proxy (the default trusts none)', () => {
    expect(clientAddressOf('198.51.100.7', '203.0.113.9', [])).toBe('198.51.100.7')
    expect(clientAddressOf('198.51.100.7', '203.0.113.9', ['10.0.0.0/8'])).toBe('198.51.100.7')
  })

  it('takes the rightmost entry no trusted proxy stands for: a client may prepend, never append', () => {
    expect(clientAddressOf('10.0.0.2', '203.0.113.9', ['10.0.0.0/8'])).toBe('203.0.113.9')
    expect(clientAddressOf('10.0.0.2', '1.2.3.4, 203.0.113.9, 10.0.0.1', ['10.0.0.0/8'])).toBe('203.0.113.9') // 1.2.3.4 is the client's own claim
    expect(clientAddressOf('10.0.0.2', '10.0.0.5, 10.0.0.1', ['10.0.0.0/8'])).toBe('10.0.0.5')
    expect(clientAddressOf('10.0.0.2', 'garbage, 10.0.0.1', ['10.0.0.0/8'])).toBe('10.0.0.1')
    expect(clientAddressOf('127.0.0.1', '2001:db8::7', ['127.0.0.1'])).toBe('2001:db8::7')
  })

  it('reads IPv4-mapped peers as IPv4 and has no address for an unknown peer', () => {
    expect(clientAddressOf('::ffff:127.0.0.1', '203.0.113.9', ['127.0.0.1'])).toBe('203.0.113.9')
    expect(clientAddressOf(undefined, '203.0.113.9', ['127.0.0.1'])).toBeUndefined()
  })
})

describe('addressLimitKey', () => {
  it('counts IPv4 by address and IPv6 by /64', () => {
    expect(addressLimitKey('203.0.113.9')).toBe('203.0.113.9')
    expect(addressLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressLimitKey('2001:db8:1:2:bbbb::9')).toBe(addressLimitKey('2001:db8:1:2:aaaa::1'))
    expect(addressLimitKey('2001:db8:1:3::1')).not.toBe(addressLimitKey('2001:db8:1:2::1'))
  })
})

describe('isAddressOrRange (trustedProxies in the deployment configuration)', () => {
  it.each(['10.0.0.1', '10.0.0.0/8', '::1', '2001:db8::/32'])('accepts %s', (text) => expect(isAddressOrRange(text)).toBe(true))
  it.each(['10.0.0.0/33', 'proxy.internal', '', '10.0.0'])('refuses %s', (text) => expect(isAddressOrRange(text)).toBe(false))
})
